/**
 * The docs stay true: README.md's and every docs/*.md page's code blocks are run, compared with a
 * file that is run, or exempt with a reason. A marker, the last line above a block that is not
 * blank, says which (test/helpers/doc-blocks.ts reads them):
 *
 *   <!-- readme: run -->            sh (bash) or js (an ES module, node) run against a fresh mock
 *                                   started with the defaults; http://127.0.0.1:4010 is its address
 *   <!-- readme: run --contract <path> -->
 *                                   the same against a mock serving that contract (a repository
 *                                   path; the block may name the same file by a relative path)
 *   <!-- readme: output -->         a text block right after a run block: everything it prints
 *                                   (stdout and stderr as they come), exactly
 *   <!-- readme: file <path> -->    the block is that file, byte for byte (examples/ are run by
 *                                   `npm run test:consumers`; scenario files are loaded here)
 *   <!-- readme: not run: <why> --> e.g. Docker or a CI service, which this machine cannot run
 *
 * A block with a language and no marker fails, so a new example cannot go untested. The pages
 * are the ones that exist: a page added to docs/ is covered without a change here.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { startMockServer, type MockServer } from '../../src/index.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { isRecord } from '../../src/util/is-record.js';
import { defaultContractPath, packageRoot } from '../../src/util/paths.js';
import { loadScenarios } from '../../src/contract/load-scenarios.js';
import {
  anchorsOf,
  blocksOf,
  docPages,
  linksOf,
  installFor,
  runsOf,
  unmarked,
  unquotedQuestionMarks,
  unrunnable,
  where,
  type Block,
} from '../helpers/doc-blocks.js';

const exec = promisify(execFile);
const DOCS_ORIGIN = 'http://127.0.0.1:4010';
/** A bound on one block's run (the slowest runs a ~1 s scenario); not a timing assertion. */
const RUN_LIMIT_MS = 20_000;
/** Pages the lead engineer is writing: links to them are fine until they land. */
const PENDING_PAGES = ['docs/options.md', 'docs/architecture.md'];
/** The test-runner recipes that test/consumers/ installs as the docs say: examples/ but scenarios. */
const RECIPES = readdirSync(join(packageRoot, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['scenarios', 'contracts'].includes(entry.name))
  .map((entry) => entry.name);

const pages = docPages(packageRoot);
const read = (page: string): string => readFileSync(join(packageRoot, page), 'utf8');
const { version } = JSON.parse(read('package.json')) as { version: string };

/** Runs a block's code; returns what it printed, stdout and stderr in the order they came. */
async function runBlock(block: Block, mock: MockServer): Promise<string> {
  const code = block.text.replaceAll(DOCS_ORIGIN, mock.origin);
  const [command, args] =
    block.lang === 'js'
      ? ['node', ['--input-type=module', '-e', code]]
      : ['bash', ['-c', `exec 2>&1\n${code}`]];
  // A non-zero exit is fine (curl reports a reset connection with 56): the output is compared.
  const { stdout } = await exec(command, args, { cwd: packageRoot, timeout: RUN_LIMIT_MS }).catch(
    (error: unknown) => ({
      stdout: isRecord(error) && typeof error.stdout === 'string' ? error.stdout : String(error),
    }),
  );
  return stdout.replaceAll(mock.origin, DOCS_ORIGIN);
}

describe.each(pages)('%s', (page) => {
  const markdown = read(page);
  const blocks = blocksOf(markdown, page);
  const runs = runsOf(blocks).map((run) => ({ ...run, name: where(run.block) }));

  it('marks every code block: run, output, file or not run (with a reason)', () => {
    expect(unmarked(blocks)).toEqual([]);
    expect(unrunnable(blocks)).toEqual([]);
  });

  it('gives every run block its output block, and no output block without one', () => {
    expect(runs.filter((run) => !run.expected).map((run) => run.name)).toEqual([]);
    const outputs = blocks.filter((block) => block.marker?.kind === 'output');
    expect(outputs.map(where)).toHaveLength(runs.length);
  });

  it('quotes every URL with a ? in its shell blocks (zsh would expand it)', () => {
    const unquoted = blocks
      .filter((block) => block.lang === 'sh')
      .flatMap((block) =>
        unquotedQuestionMarks(block.text).map((line) => `${page}:${String(block.line + line)}`),
      );
    expect(unquoted).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken = linksOf(markdown).filter(({ target }) => {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(packageRoot, file))) return !PENDING_PAGES.includes(file);
      return anchor !== undefined && !anchorsOf(read(file)).has(anchor);
    });
    expect(broken.map(({ line, target }) => `${page}:${String(line)} ${target}`)).toEqual([]);
  });

  it(`names the package's version (${version}) wherever it names one`, () => {
    const named = [
      ...markdown.matchAll(/petstore-mock-(\d+\.\d+\.\d+)\.tgz|petstore-mock:(\d+\.\d+\.\d+)/g),
    ].map((found) => found[1] ?? found[2]);
    expect(named.filter((named) => named !== version)).toEqual([]);
  });

  const files = blocks.filter((block) => block.marker?.kind === 'file');
  if (files.length > 0) {
    it.each(files.map((block) => [where(block), block] as const))(
      '%s is the file it names',
      (_name, block) => {
        const marker = block.marker;
        if (marker?.kind !== 'file') throw new Error('not a file block');
        expect(block.text).toBe(read(marker.path));
      },
    );
  }

  if (runs.length > 0) {
    describe('run blocks, each against a fresh mock with the defaults', () => {
      let mock: MockServer | undefined;

      afterEach(async () => {
        await mock?.close();
        mock = undefined;
      });

      it.each(runs)(
        '$name prints what its output block says',
        async ({ block, expected }) => {
          const contract = block.marker?.kind === 'run' ? block.marker.contract : undefined;
          mock = await startMockServer(
            contract === undefined ? {} : { contract: join(packageRoot, contract) },
          );
          expect(await runBlock(block, mock)).toBe(expected?.text);
        },
        RUN_LIMIT_MS * 2,
      );
    });
  }
});

describe('the examples the docs show', () => {
  it('include a scenario file that loads', () => {
    const scenarios = loadScenarios(
      join(packageRoot, 'examples', 'scenarios'),
      loadContract(defaultContractPath),
    );
    expect(scenarios.get('flaky-create')?.rules).toHaveLength(3);
  });

  it.each(RECIPES)('tell what to install for the %s recipe', (recipe) => {
    expect(() => installFor(packageRoot, recipe)).not.toThrow();
  });
});
