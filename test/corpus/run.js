/**
 * npm run test:corpus: the mock checked against public contracts written by others (contracts.json).
 * For each, the built mock is started as a user starts it (`node dist/cli.js --contract FILE`),
 * twice with the same seed; every operation gets a valid request built from the contract, every
 * answer is judged by an independent validator, and GET answers must be the same bytes both times.
 * The harness first checks itself against a fake server (lib/self-test.js).
 *
 * Usage: node test/corpus/run.js [--only id,...] [--quick] [--json file] [--self-test]
 *        [--deadline seconds] [--request-timeout ms]
 * Exits 0 only when no contract was refused (but those listed broken), and no answer was invalid,
 * 5xx, a 401 to the contract's credentials, an undocumented 4xx to a valid request, missing, or
 * different for the same seed.
 */
import console from 'node:console';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { checkContract } from './lib/check-contract.js';
import { readContract } from './lib/contract.js';
import {
  contractPath,
  corpusHome,
  ensureCorpus,
  licenceProblem,
  loadManifest,
} from './lib/corpus.js';
import { killAllNow, startMock } from './lib/mock-process.js';
import { renderFailures, renderTable, verdictOf } from './lib/report.js';
import { runSelfTest } from './lib/self-test.js';

const projectRoot = join(corpusHome, '..', '..');
const cli = join(projectRoot, 'dist', 'cli.js');
const SEED = 1;
const QUICK_OPERATIONS = 20;
const START_TIMEOUT_MS = 60_000;

const OPTIONS = {
  only: { type: 'string' },
  quick: { type: 'boolean', default: false },
  json: { type: 'string' },
  'self-test': { type: 'boolean', default: false },
  deadline: { type: 'string', default: '600' },
  'request-timeout': { type: 'string', default: '10000' },
};

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\ncorpus: ${signal}, stopping the servers`);
    killAllNow();
    process.exit(130);
  });
}

/** A mistake in how the runner was called, or a missing build: said in one line, no stack. */
class UsageError extends Error {}

/** The command line's options; a UsageError for an unknown one or a number that is none. */
function readArgs() {
  let values;
  try {
    ({ values } = parseArgs({ options: OPTIONS }));
  } catch (error) {
    throw new UsageError(error.message);
  }
  for (const name of ['deadline', 'request-timeout']) {
    if (!(Number(values[name]) > 0)) throw new UsageError(`--${name}: not a positive number`);
  }
  return values;
}

async function main() {
  const args = readArgs();
  if (!existsSync(cli)) throw new UsageError(`${cli} is missing: run npm run build first`);
  const mock = { cli, cwd: projectRoot, contract: join(projectRoot, 'openapi.yaml') };
  console.log('corpus: the harness checks itself first');
  const sound = await runSelfTest(mock, (line) => console.log(`  ${line}`));
  if (!sound) {
    console.error(
      'corpus: the harness failed its self-test: its verdict on the mock would mean nothing',
    );
    return 1;
  }
  if (args['self-test']) return 0;

  const dir = ensureCorpus((line) => console.log(line));
  let entries = loadManifest();
  if (args.only !== undefined) {
    const wanted = args.only.split(',').map((id) => id.trim());
    const unknown = wanted.filter((id) => !entries.some((e) => e.id === id));
    if (unknown.length > 0) {
      throw new UsageError(`--only: no contract ${unknown.join(', ')} in contracts.json`);
    }
    entries = entries.filter((e) => wanted.includes(e.id));
  }
  const options = {
    quick: args.quick ? QUICK_OPERATIONS : 0,
    deadlineMs: Number(args.deadline) * 1000,
    requestTimeoutMs: Number(args['request-timeout']),
  };

  const results = [];
  for (const entry of entries) {
    const file = contractPath(dir, entry);
    const launch = () => startMock({ ...mock, file, seed: SEED, timeoutMs: START_TIMEOUT_MS });
    const started = performance.now();
    const result = await checkContract({ id: entry.id, file, launch, options });
    result.durationMs = Math.round(performance.now() - started);
    result.broken = entry.broken;
    const licence = licenceOf(entry, file);
    if (licence !== undefined) result.failures.push({ kind: 'manifest', detail: licence });
    results.push(result);
    console.log(`corpus: ${entry.id}: ${summaryOf(result)}`);
  }

  console.log(`\n${renderTable(results)}`);
  console.log(renderFailures(results));
  const verdict = verdictOf(results);
  if (args.json !== undefined) {
    writeFileSync(
      args.json,
      `${JSON.stringify({ seed: SEED, options, verdict, results }, null, 2)}\n`,
    );
  }
  if (verdict.ok) {
    console.log(
      `\ncorpus: ${results.length} contracts kept, ${results.reduce((n, r) => n + r.sent, 0)} answers checked`,
    );
    return 0;
  }
  console.log(`\ncorpus: FAILED\n${verdict.reasons.map((r) => `  ${r}`).join('\n')}`);
  return 1;
}

function licenceOf(entry, file) {
  try {
    return licenceProblem(entry, readContract(file));
  } catch (error) {
    return `cannot read the contract: ${error.message}`;
  }
}

function summaryOf(result) {
  const took = `${(result.durationMs / 1000).toFixed(1)} s`;
  if (result.refused !== undefined && result.startMs === undefined) {
    return `refused (${took}): ${result.refused}`;
  }
  return `${result.sent} answers, ${result.failures.length} failures, ${result.unbuildable.length} without a valid request (${took})`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(
      `corpus: ${error instanceof UsageError ? error.message : (error.stack ?? error)}`,
    );
    process.exitCode = 1;
  },
);
