import {
  anchorsOf,
  blocksOf,
  linksOf,
  recipeInstall,
  runsOf,
  slugOf,
  unmarked,
  unquotedQuestionMarks,
  unrunnable,
} from '../helpers/doc-blocks.js';

const fence = '```';

describe('the code blocks of a page', () => {
  const page = [
    '# A page',
    '',
    `${fence}sh`,
    'echo unmarked',
    fence,
    '',
    '<!-- readme: run -->',
    '',
    `${fence}sh`,
    'echo hi',
    fence,
    '',
    '<!-- readme: output -->',
    '',
    `${fence}text`,
    'hi',
    fence,
    '',
    '<!-- readme: run -->',
    `${fence}yaml`,
    'a: 1',
    fence,
    '<!-- readme: not run: needs Docker -->',
    `${fence}sh`,
    'docker ps',
    fence,
  ].join('\n');
  const blocks = blocksOf(page, 'docs/example.md');

  it('names a block with a language and no marker by its page and line', () => {
    expect(unmarked(blocks)).toEqual(['docs/example.md:3']);
  });

  it('reads each marker, and refuses a run block it cannot run', () => {
    expect(blocks.map((block) => block.marker?.kind)).toEqual([
      undefined,
      'run',
      'output',
      'run',
      'not run',
    ]);
    expect(unrunnable(blocks)).toEqual(['docs/example.md:20']);
  });

  it('pairs a run block with the output block after it', () => {
    const [first, second] = runsOf(blocks);
    expect(first?.expected?.text).toBe('hi\n');
    expect(second?.expected).toBeUndefined();
  });

  it('refuses a block that never ends, naming where it starts', () => {
    expect(() => blocksOf(`text\n\n${fence}sh\necho`, 'README.md')).toThrow('README.md:3');
  });
});

describe('URLs with a ? in shell blocks', () => {
  it('finds those outside quotes, line by line', () => {
    const shell = [
      "curl 'http://h/v1/pets?limit=3'",
      'curl http://h/v1/pets?limit=3',
      'curl "$M/v1/pets?limit=3" \\',
      '  $M/v1/pets?limit=1',
    ].join('\n');
    expect(unquotedQuestionMarks(shell)).toEqual([2, 4]);
  });

  it('allows $? and comments', () => {
    expect(unquotedQuestionMarks('false; echo "exit $?"; echo $? # why?\n')).toEqual([]);
  });
});

describe('links and headings', () => {
  it("makes GitHub's anchors, repeats numbered", () => {
    expect(slugOf('Admin API (`/__admin`)')).toBe('admin-api-__admin');
    const anchors = anchorsOf(`# Setup\n\n## Setup\n\n${fence}sh\n# not a heading\n${fence}\n`);
    expect([...anchors]).toEqual(['setup', 'setup-1']);
  });

  it('lists relative links and images outside code blocks', () => {
    const page = `[a](docs/a.md#x) [b](https://x.org) ![c](c.png)\n${fence}\n[d](d.md)\n${fence}\n`;
    expect(linksOf(page)).toEqual([
      { line: 1, target: 'docs/a.md#x' },
      { line: 1, target: 'c.png' },
    ]);
  });
});

describe('what a recipe says to install', () => {
  const page = [
    'With jest: `npm install --save-dev <the package> jest`:',
    '<!-- readme: file examples/jest/pets.test.js -->',
    '<!-- readme: file examples/jest/jest.config.js -->',
    'node:test, nothing but the package: `npm install --save-dev <the package>`',
    '<!-- readme: file examples/node-test/pets.test.mjs -->',
    '<!-- readme: file examples/vitest/pets.test.ts -->',
  ].join('\n');

  it("is the command above the recipe's first file", () => {
    expect(recipeInstall(page, 'jest')).toEqual(['jest']);
    expect(recipeInstall(page, 'node-test')).toEqual([]);
  });

  it('is never the command of the recipe before it', () => {
    expect(() => recipeInstall(page, 'vitest')).toThrow('no install command above');
    expect(() => recipeInstall(page, 'playwright')).toThrow('no recipe shows');
  });
});
