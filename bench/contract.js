/**
 * npm run bench, after run.js (see all.js): the mock on large public contracts beside Prism (issue
 * 29, item 8). Atlassian Jira (1.8 MB, 499 operations) and DigitalOcean (1.07 MB, 290), read
 * from the corpus's pinned packages (test/corpus, installed on demand outside the repository).
 * Each round starts every system afresh on each contract, on Node 24 pinned to core 0: spawn to
 * the first answer of a fixed GET, the RSS 1 s later, then the first answer of 20 other GETs, and
 * the RSS after them. 3 rounds (1 with --quick), interleaved; writes
 * bench/results/contract-latest.{md,json}. Exits 1 only when a system fails to start.
 * Usage: node bench/contract.js [--quick] [--no-prism]
 */
import console from 'node:console';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, fileURLToPath } from 'node:url';
import { listOperations } from '../test/corpus/lib/contract.js';
import { corpusDir, contractPath, ensureCorpus, loadManifest } from '../test/corpus/lib/corpus.js';
import { credentialsFor } from '../test/corpus/lib/credentials.js';
import {
  coresOf,
  cpuMs,
  killChildrenOnExit,
  pinning,
  rssMiB,
  spawnNodeServer,
  stopAll,
  stopServer,
} from './lib/children.js';
import {
  chooseOperations,
  combineSystemRounds,
  judgeFloors,
  plainGets,
  summariseRound,
} from './lib/contract-figures.js';
import { renderContractMarkdown } from './lib/contract-report.js';
import { POLL_INTERVAL_MS, freePort, timedGet, waitForAnswer } from './lib/http-probe.js';
import { PRISM_VERSION, resultsDir } from './lib/paths.js';
import { preparePrism } from './lib/prism.js';
import { ensureBuilt, rerunOnNode24, runBench } from './lib/runner.js';
import { resolveNode24 } from './lib/runtimes.js';

/**
 * The contracts, by their id in test/corpus/contracts.json, each with the GET without parameters
 * whose first answer marks the start.
 */
const CONTRACTS = [
  { id: 'atlassian-jira', label: 'Atlassian Jira', first: '/rest/api/3/serverInfo' },
  { id: 'digitalocean', label: 'DigitalOcean', first: '/v2/account' },
];

/** From the first answer to the RSS after start: as run.js's idle RSS. */
const SETTLE_MS = 1000;
/** Bounds on every wait: a start (a busy machine makes Prism slow on 1.8 MB), one request. */
const START_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 30_000;

function parseOptions(argv) {
  const unknown = argv.filter((arg) => !['--quick', '--no-prism'].includes(arg));
  if (unknown.length > 0)
    throw new Error(`unknown option ${unknown.join(' ')} (--quick, --no-prism)`);
  const quick = argv.includes('--quick');
  return { quick, prism: !argv.includes('--no-prism'), rounds: quick ? 1 : 3 };
}

/** The path of the contract's first server URL, where the mock serves it ('' for none). */
function serverPath(doc) {
  const url = doc.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
}

/**
 * The two systems, on Node 24. `args(port, file)`: node's arguments; `basePath(doc)`: where the
 * contract's paths are served (Prism serves them without the servers' path).
 */
function defineSystems({ runtimes, prism, prismLogFile }) {
  const on24 = { node: runtimes.node24.path, runtime: runtimes.node24.version };
  return [
    {
      key: 'mock',
      column: 'mock (shipped)',
      label:
        'the app as shipped: `dist/cli.js --contract FILE --host 127.0.0.1 --port N ' +
        "--log-level silent`, on the bin's V8 launch flags",
      ...on24,
      basePath: serverPath,
      args: (port, file) => [
        'dist/cli.js',
        '--contract',
        file,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--log-level',
        'silent',
      ],
    },
    {
      key: 'prism',
      column: 'Prism -v error',
      label: `Prism ${PRISM_VERSION} \`mock -h 127.0.0.1 -p N --errors=false -v error FILE\` (its output to a file)`,
      ...on24,
      unavailable: prism.unavailable,
      logFile: prismLogFile,
      basePath: () => '',
      args: (port, file) => [
        prism.entry,
        'mock',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '--errors=false',
        '-v',
        'error',
        file,
      ],
    },
  ];
}

/** A contract of the corpus, read, with the operations the bench asks for. */
function loadContract(spec, dir, manifest) {
  const entry = manifest.find(({ id }) => id === spec.id);
  if (entry === undefined) throw new Error(`test/corpus/contracts.json has no ${spec.id}`);
  const path = contractPath(dir, entry);
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  const operations = listOperations(doc);
  const plain = plainGets(operations, (security) => credentialsFor(doc, security));
  const { first, others } = chooseOperations(plain, spec.first);
  return {
    ...spec,
    package: entry.package,
    file: entry.path,
    path,
    doc,
    bytes: statSync(path).size,
    operationCount: operations.length,
    plainGets: plain.length,
    first,
    others,
  };
}

/**
 * One start of a system on a contract: spawn to the first answer of the fixed GET (which must be
 * a 200), the RSS SETTLE_MS later, the first answer of each other operation in turn, and the RSS
 * right after them. The server is always stopped.
 */
async function measureOnce(system, contract, results) {
  const port = await freePort();
  const started = performance.now();
  const server = spawnNodeServer(system.args(port, contract.path), {
    node: system.node,
    logFile: system.logFile,
  });
  const { pid } = server.child;
  try {
    const origin = `http://127.0.0.1:${port}${system.basePath(contract.doc)}`;
    const { first } = contract;
    const answer = await waitForAnswer(
      `${origin}${first.path}`,
      first.headers,
      server,
      START_TIMEOUT_MS,
    );
    const startCpuMs = cpuMs(pid);
    if (answer.status !== 200) throw new Error(`GET ${first.path} answered ${answer.status}`);
    results.cores.servers[system.key] = coresOf(pid);
    await sleep(SETTLE_MS);
    const rssStartMiB = rssMiB(pid);
    const operations = [];
    for (const { path, headers } of contract.others) {
      const { status, ms } = await timedGet(`${origin}${path}`, headers, REQUEST_TIMEOUT_MS);
      operations.push({ path, status, ms });
    }
    const rssAfterMiB = rssMiB(pid);
    return { startMs: answer.at - started, startCpuMs, rssStartMiB, operations, rssAfterMiB };
  } finally {
    await stopServer(server);
  }
}

function logRound(contract, system, label, round) {
  const s = summariseRound(round);
  const failed = s.failed.length === 0 ? '' : `  ⚠ ${s.failed.length} not a success`;
  console.log(
    `${`${contract.label} ${label}`.padEnd(24)} ${system.key.padEnd(5)}: start ` +
      `${Math.round(s.startMs)} ms (CPU ${s.startCpuMs ?? '?'} ms), RSS ${s.rssStartMiB?.toFixed(1)} MiB; ` +
      `operations ${Math.round(s.operationsMedianMs)}/${Math.round(s.operationsP90Ms)}/` +
      `${Math.round(s.operationsMaxMs)} ms (median/p90/max), RSS ${s.rssAfterMiB?.toFixed(1)} MiB${failed}`,
  );
}

function newResults(options, systems, runtimes) {
  const results = {
    date: new Date().toISOString(),
    quick: options.quick,
    runtimes: { runner: process.version, node24: runtimes.node24.version },
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    pinning,
    cores: { runner: coresOf(process.pid), servers: {} },
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
    settings: { rounds: options.rounds, settleMs: SETTLE_MS, pollMs: POLL_INTERVAL_MS },
    systems: {},
    contracts: [],
    floors: [],
  };
  for (const { key, label, column, runtime, unavailable } of systems) {
    results.systems[key] = { label, column, runtime, available: unavailable === undefined };
    if (unavailable !== undefined) results.systems[key].reason = unavailable;
  }
  return results;
}

/**
 * Why a start failed, in a line: the message's first line, and the first line of the server's
 * output that names an error (a crash's first line is only where it was thrown).
 */
function firstLines(error) {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const named = lines.slice(1).find((line) => /^\w*Error\b/.test(line));
  return [lines[0] ?? 'unknown', ...(named === undefined ? [] : [named])].join(' … ');
}

/**
 * The rounds: in each, every contract and every available system, one fresh start each. A system
 * that fails to start on a contract is noted there and not started on it again.
 */
async function runRounds(contracts, systems, options, results) {
  const rounds = new Map(contracts.map((c) => [c.id, new Map(systems.map((s) => [s.key, []]))]));
  const failures = new Map(contracts.map((c) => [c.id, {}]));
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const contract of contracts) {
      for (const system of systems) {
        const failed = failures.get(contract.id);
        if (!results.systems[system.key].available || failed[system.key] !== undefined) continue;
        try {
          const measured = await measureOnce(system, contract, results);
          rounds.get(contract.id).get(system.key).push(measured);
          logRound(contract, system, `(${round}/${options.rounds})`, measured);
        } catch (error) {
          const reason = firstLines(error);
          failed[system.key] = reason;
          console.log(`bench: ${system.key} failed to start on ${contract.label}: ${reason}`);
        }
      }
    }
  }
  return { rounds, failures };
}

/** What the run came to, per contract: its operations, each system's figures, its floors. */
function recordContracts(contracts, { rounds, failures }, results) {
  for (const contract of contracts) {
    const systems = {};
    for (const [key, measured] of rounds.get(contract.id)) {
      if (measured.length > 0) systems[key] = combineSystemRounds(measured);
    }
    results.contracts.push({
      id: contract.id,
      label: contract.label,
      package: contract.package,
      file: contract.file,
      bytes: contract.bytes,
      operationCount: contract.operationCount,
      plainGets: contract.plainGets,
      first: { path: contract.first.path, credentials: contract.first.credentials },
      others: contract.others.map(({ path, credentials }) => ({ path, credentials })),
      failedToStart: failures.get(contract.id),
      systems,
    });
    if (systems.mock !== undefined) {
      results.floors.push(...judgeFloors(contract.label, systems.mock, systems.prism));
    }
  }
}

function writeResults(results) {
  mkdirSync(resultsDir, { recursive: true });
  const markdown = renderContractMarkdown(results);
  writeFileSync(join(resultsDir, 'contract-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'contract-latest.md'), markdown);
  console.log(`\n${markdown}`);
  console.log(`bench: written to ${join('bench', 'results', 'contract-latest.{md,json}')}`);
}

/** The runner's own process, on Node 24 (and pinned): measures and writes the results. */
async function main(runtimes) {
  const options = parseOptions(process.argv.slice(2));
  killChildrenOnExit();
  const prism = options.prism
    ? preparePrism({ install: !options.quick })
    : { unavailable: 'skipped (--no-prism)' };
  const dir = corpusDir();
  const manifest = loadManifest();
  const contracts = CONTRACTS.map((spec) => loadContract(spec, dir, manifest));
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-bench-contract-'));
  const systems = defineSystems({ runtimes, prism, prismLogFile: join(tmp, 'prism.log') });
  const results = newResults(options, systems, runtimes);
  let outcome;
  try {
    outcome = await runRounds(contracts, systems, options, results);
    recordContracts(contracts, outcome, results);
    writeResults(results);
  } finally {
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
  const failed = [...outcome.failures.values()].some((f) => Object.keys(f).length > 0);
  if (failed) process.exitCode = 1;
}

/** The process npm starts: checks the options, builds, installs the corpus, finds Node 24. */
function prepare() {
  parseOptions(process.argv.slice(2));
  ensureBuilt();
  const node24 = resolveNode24();
  const dir = ensureCorpus((line) => {
    console.log(`bench: ${line}`);
  });
  console.log(`bench: contracts from ${dir}; servers and runner on Node ${node24.version}`);
  rerunOnNode24(fileURLToPath(import.meta.url), { node24 });
}

runBench(prepare, main);
