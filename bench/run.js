/**
 * npm run bench: the benchmark suite of issue 5. Starts each system as its own server process
 * (pinned to core 0), loads it with autocannon from this process (pinned to core 1), and writes
 * bench/results/latest.{md,json}. Usage: node bench/run.js [--quick] [--no-prism]
 */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  RUNNER_CORE,
  coresOf,
  killChildrenOnExit,
  pinning,
  rssMiB,
  stopAll,
  stopServer,
} from './lib/children.js';
import { REQUESTS, measure } from './lib/load.js';
import { projectRoot, resultsDir } from './lib/paths.js';
import { preparePrism } from './lib/prism.js';
import { evaluateTargets, renderMarkdown } from './lib/report.js';
import { defineSystems, startSystem } from './lib/systems.js';

const PINNED_MARK = 'BENCH_RUNNER_PINNED';
/** Let a freshly started server settle (JIT, lazy loading, first GC) before reading its RSS. */
const IDLE_SETTLE_MS = 1000;

const SEED_100K = ['--seed', '1', '--count', '100000'];
const SEED_100 = ['--seed', '1', '--count', '100'];
const SEED_10K = ['--seed', '1', '--count', '10000'];

/** Workloads run on every system, on the default data; creates last, as they grow the stores. */
const SHARED_WORKLOADS = [
  { id: 'list-c10', label: 'list c10', request: 'list', connections: 10 },
  { id: 'list-c100', label: 'list c100', request: 'list', connections: 100 },
  { id: 'get-c10', label: 'get c10', request: 'get', connections: 10 },
  { id: 'create-c10', label: 'create c10', request: 'create', connections: 10 },
];

/** Workloads on servers started with their own data; runs: [system key, server name] pairs. */
const DATA_WORKLOADS = [
  {
    id: 'sold-100k',
    label: 'list status=sold c10, 100k pets',
    request: 'listSold',
    runs: [
      ['b', 'b100k'],
      ['c', 'c100k'],
    ],
  },
  {
    id: 'list20-100',
    label: 'list limit 20 c10, 100 pets',
    request: 'list20',
    runs: [['c', 'c100']],
  },
  {
    id: 'list20-100k',
    label: 'list limit 20 c10, 100k pets',
    request: 'list20',
    runs: [['c', 'c100k']],
  },
  {
    id: 'create-10k-mem',
    label: 'create c10, 10k pets in memory',
    request: 'create',
    runs: [['c', 'c10k']],
  },
  {
    id: 'create-10k-db',
    label: 'create c10, 10k pets, --db',
    request: 'create',
    runs: [['c', 'c10kDb']],
  },
];

function parseOptions(argv) {
  const unknown = argv.filter((arg) => !['--quick', '--no-prism'].includes(arg));
  if (unknown.length > 0)
    throw new Error(`unknown option ${unknown.join(' ')} (--quick, --no-prism)`);
  const quick = argv.includes('--quick');
  return {
    quick,
    prism: !argv.includes('--no-prism'),
    seconds: quick ? 1 : 5,
    warmupSeconds: quick ? 0.5 : 1,
    startupRuns: quick ? 3 : 5,
  };
}

/**
 * Runs this script again under `taskset -c 1`, so the load generator never shares the servers'
 * core. Signals are passed on; the pinned run stops its servers itself.
 */
function rerunPinned() {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(
    'taskset',
    ['-c', String(RUNNER_CORE), process.execPath, script, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, [PINNED_MARK]: '1' },
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 130 : 1));
  });
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/, so the numbers are those of the code. */
function ensureBuilt() {
  const cli = join(projectRoot, 'dist', 'cli.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(join(projectRoot, 'src'))) return;
  console.log('bench: dist/ is missing or older than src/: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function markUnavailable(results, key, error) {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  results.systems[key] = { ...results.systems[key], available: false, reason };
  console.log(`bench: ${key} unavailable: ${reason}`);
}

/** Spawn to first 200, `runs` times per system, round-robin; Prism failing to start is noted. */
async function measureStartup(systems, options, results) {
  const timed = systems.filter((system) => system.key !== 'b');
  const runs = Object.fromEntries(timed.map((system) => [system.key, []]));
  for (let round = 0; round < options.startupRuns; round += 1) {
    for (const system of timed) {
      if (!results.systems[system.key].available) continue;
      try {
        const running = await startSystem(system);
        runs[system.key].push(running.startupMs);
        await stopServer(running.server);
      } catch (error) {
        if (system.key !== 'd') throw error;
        markUnavailable(results, 'd', error);
      }
    }
  }
  for (const [key, values] of Object.entries(runs)) {
    if (values.length === 0) continue;
    results.startup[key] = { runsMs: values, medianMs: median(values) };
    console.log(
      `startup ${key}: median ${Math.round(median(values))} ms of ${values.map(Math.round).join(', ')}`,
    );
  }
}

function logMeasurement(label, key, m) {
  const failed = m.bad === 0 ? '' : `  ⚠ ${m.bad} failed ${JSON.stringify(m.statusCounts)}`;
  console.log(
    `${label.padEnd(34)} ${key}: ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms${failed}`,
  );
}

async function runWorkload(workload, targets, options, results) {
  results.workloads.push({
    id: workload.id,
    label: workload.label,
    connections: workload.connections ?? 10,
  });
  results.measurements[workload.id] = {};
  for (const [key, running] of targets) {
    const m = await measure(running.baseUrl, REQUESTS[workload.request], {
      connections: workload.connections ?? 10,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
    });
    results.measurements[workload.id][key] = m;
    logMeasurement(workload.label, key, m);
  }
}

/** Starts the systems that take part; Prism failing to start is noted, the others are fatal. */
async function startAvailable(systems, results) {
  const running = [];
  for (const system of systems) {
    if (!results.systems[system.key].available) continue;
    try {
      running.push([system.key, await startSystem(system)]);
    } catch (error) {
      if (system.key !== 'd') throw error;
      markUnavailable(results, 'd', error);
    }
  }
  return running;
}

/** The shared workloads, interleaved over a–d, with RSS read before and after. */
async function runSharedWorkloads(systems, options, results) {
  const running = await startAvailable(systems, results);
  await sleep(IDLE_SETTLE_MS);
  for (const [key, server] of running) {
    results.rss[key] = { idleMiB: rssMiB(server.pid) };
    results.cores.servers[key] = coresOf(server.pid);
  }
  for (const workload of SHARED_WORKLOADS) await runWorkload(workload, running, options, results);
  for (const [key, server] of running) results.rss[key].afterLoadMiB = rssMiB(server.pid);
  await Promise.all(running.map(([, server]) => stopServer(server.server)));
}

/** The data-size workloads: 100k-pet filter and scaling, then --db against in memory. */
async function runDataWorkloads(systems, options, results, dbPath) {
  const byKey = Object.fromEntries(systems.map((system) => [system.key, system]));
  const phases = [
    { b100k: ['b', SEED_100K], c100k: ['c', SEED_100K], c100: ['c', SEED_100] },
    { c10k: ['c', SEED_10K], c10kDb: ['c', [...SEED_10K, '--db', dbPath]] },
  ];
  for (const phase of phases) {
    const servers = {};
    for (const [name, [key, flags]] of Object.entries(phase))
      servers[name] = await startSystem(byKey[key], flags);
    for (const workload of DATA_WORKLOADS.filter((w) =>
      w.runs.every(([, name]) => name in servers),
    )) {
      const targets = workload.runs.map(([key, name]) => [key, servers[name]]);
      await runWorkload(workload, targets, options, results);
    }
    await Promise.all(Object.values(servers).map((running) => stopServer(running.server)));
  }
}

function writeResults(results) {
  mkdirSync(resultsDir, { recursive: true });
  const markdown = renderMarkdown(results);
  writeFileSync(join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'latest.md'), markdown);
  console.log(`\n${markdown}`);
  console.log(`bench: written to ${join('bench', 'results', 'latest.{md,json}')}`);
}

function newResults(options, systems, prism) {
  const results = {
    date: new Date().toISOString(),
    quick: options.quick,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    pinning,
    // What /proc says, so a reader can check the pinning; the load average shows other work.
    cores: { runner: coresOf(process.pid), servers: {} },
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
    settings: {
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      startupRuns: options.startupRuns,
    },
    systems: {},
    workloads: [],
    measurements: {},
    startup: {},
    rss: {},
    targets: [],
  };
  for (const system of systems)
    results.systems[system.key] = { label: system.label, available: true };
  if (prism.unavailable)
    results.systems.d = { label: 'Prism 5.14.2', available: false, reason: prism.unavailable };
  return results;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  killChildrenOnExit();
  ensureBuilt();
  const prism = options.prism
    ? preparePrism({ install: !options.quick })
    : { unavailable: 'skipped (--no-prism)' };
  const systems = defineSystems(prism.entry);
  const results = newResults(options, systems, prism);
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  try {
    await measureStartup(systems, options, results);
    await runSharedWorkloads(systems, options, results);
    await runDataWorkloads(systems, options, results, join(tmp, 'pets.json'));
    results.targets = evaluateTargets(results);
    writeResults(results);
  } finally {
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (pinning && process.env[PINNED_MARK] !== '1') {
  rerunPinned();
} else {
  main().catch((error) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
