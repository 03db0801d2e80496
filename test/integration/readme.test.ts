/**
 * The README stays true: its code blocks are run, compared with a file that is run, or exempt with
 * a reason. A marker, the last line above a block that is not blank, says which:
 *
 *   <!-- readme: run -->            sh (bash) or js (an ES module, node) run against a fresh mock
 *                                   started with the defaults; http://127.0.0.1:4010 is its address
 *   <!-- readme: output -->         a text block right after a run block: everything it prints
 *                                   (stdout and stderr as they come), exactly
 *   <!-- readme: file <path> -->    the block is that file, byte for byte (examples/ are run by
 *                                   `npm run test:consumers`; scenario files are loaded here)
 *   <!-- readme: not run: <why> --> e.g. Docker or a CI service, which this machine cannot run
 *
 * A block with a language and no marker fails the first test, so a new example cannot go untested.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startMockServer, type MockServer } from '../../src/index.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { isRecord } from '../../src/util/is-record.js';
import { defaultContractPath, packageRoot } from '../../src/util/paths.js';
import { loadScenarios } from '../../src/contract/load-scenarios.js';

const exec = promisify(execFile);
const README_ORIGIN = 'http://127.0.0.1:4010';
/** A bound on one block's run (the slowest runs a ~1 s scenario); not a timing assertion. */
const RUN_LIMIT_MS = 20_000;

type Marker =
  | { kind: 'run' }
  | { kind: 'output' }
  | { kind: 'file'; path: string }
  | { kind: 'not run'; reason: string };

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  marker: Marker | undefined;
}

function parseMarker(line: string | undefined): Marker | undefined {
  const found = /^<!-- readme: (run|output|file (\S+)|not run: (.+?)) -->$/.exec(line ?? '');
  if (!found) return undefined;
  if (found[2] !== undefined) return { kind: 'file', path: found[2] };
  if (found[3] !== undefined) return { kind: 'not run', reason: found[3] };
  return found[1] === 'run' ? { kind: 'run' } : { kind: 'output' };
}

/** The fenced blocks of a Markdown text, each with the marker on the line above it. */
function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line));
    if (end === -1) throw new Error(`README.md:${String(i + 1)}: a block that never ends`);
    blocks.push({
      line: i + 1,
      lang: open[1] ?? '',
      text: `${lines.slice(i + 1, end).join('\n')}\n`,
      marker: parseMarker(lines.slice(0, i).findLast((line) => line.trim() !== '')),
    });
    i = end;
  }
  return blocks;
}

const blocks = blocksOf(readFileSync(join(packageRoot, 'README.md'), 'utf8'));
const where = (block: Block): string => `README.md:${String(block.line)}`;

/** Each run block with the output block that follows it. */
const runs = blocks.flatMap((block, i) => {
  if (block.marker?.kind !== 'run') return [];
  const next = blocks[i + 1];
  return [
    { name: where(block), block, expected: next?.marker?.kind === 'output' ? next : undefined },
  ];
});

/** Runs a block's code; returns what it printed, stdout and stderr in the order they came. */
async function runBlock(block: Block, mock: MockServer): Promise<string> {
  const code = block.text.replaceAll(README_ORIGIN, mock.origin);
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
  return stdout.replaceAll(mock.origin, README_ORIGIN);
}

describe('README.md', () => {
  it('marks every code block: run, output, file or not run (with a reason)', () => {
    const unmarked = blocks
      .filter((block) => block.lang !== '' && block.lang !== 'text' && !block.marker)
      .map(where);
    expect(unmarked).toEqual([]);
    const runnable = blocks
      .filter((block) => block.marker?.kind === 'run' && !['sh', 'js'].includes(block.lang))
      .map(where);
    expect(runnable).toEqual([]);
  });

  it('gives every run block its output block, and no output block without one', () => {
    expect(runs.filter((run) => !run.expected).map((run) => run.name)).toEqual([]);
    const outputs = blocks.filter((block) => block.marker?.kind === 'output');
    expect(outputs).toHaveLength(runs.length);
  });

  it.each(blocks.filter((block) => block.marker?.kind === 'file').map((b) => [where(b), b]))(
    '%s is the file it names',
    (_name, block) => {
      const marker = block.marker;
      if (marker?.kind !== 'file') throw new Error('not a file block');
      expect(block.text).toBe(readFileSync(join(packageRoot, marker.path), 'utf8'));
    },
  );

  it('shows a scenario file that loads', () => {
    const scenarios = loadScenarios(
      join(packageRoot, 'examples', 'scenarios'),
      loadContract(defaultContractPath),
    );
    expect(scenarios.get('flaky-create')?.rules).toHaveLength(3);
  });

  describe('run blocks, each against a fresh mock with the defaults', () => {
    let mock: MockServer | undefined;

    afterEach(async () => {
      await mock?.close();
      mock = undefined;
    });

    it.each(runs)(
      '$name prints what its output block says',
      async ({ block, expected }) => {
        mock = await startMockServer();
        expect(await runBlock(block, mock)).toBe(expected?.text);
      },
      RUN_LIMIT_MS * 2,
    );
  });
});
