/**
 * npm run bench, first (then bench/redis.js: see all.js): the benchmark suite (issue 10; judged by issue 22's floors). Starts
 * each system as its own server process on Node 24 (pinned to core 0; c and e also on Node 20),
 * loads it with autocannon from this process (pinned to core 1, also on Node 24), and writes
 * bench/results/latest.{md,json}.
 * Each throughput measurement is taken in rounds (3; 1 with --quick), the systems interleaved
 * within each round, and reported as the median round; each system is started 5 times (3) for
 * its startup time, CPU time and idle RSS, reported as medians.
 * Usage: node bench/run.js [--quick] [--no-prism]
 */
import console from 'node:console';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  coresOf,
  killChildrenOnExit,
  pinning,
  rssMiB,
  stopAll,
  stopServer,
} from './lib/children.js';
import { REQUESTS, measure } from './lib/load.js';
import { resultsDir } from './lib/paths.js';
import { preparePrism } from './lib/prism.js';
import { evaluateTargets, renderMarkdown } from './lib/report.js';
import { ensureBuilt, rerunOnNode24, runBench } from './lib/runner.js';
import { resolveNode20, resolveNode24 } from './lib/runtimes.js';
import { combineRounds, median } from './lib/rounds.js';
import { defineSystems, resetStore, startSystem } from './lib/systems.js';

/** Let a freshly started server settle (JIT, lazy loading, first GC) before reading its RSS. */
const IDLE_SETTLE_MS = 1000;

const SEED_100K = ['--seed', '1', '--count', '100000'];
const SEED_100 = ['--seed', '1', '--count', '100'];
const SEED_10K = ['--seed', '1', '--count', '10000'];

/**
 * Workloads run on every Node 24 system (and with node20, on the Node 20 ones too), on the default
 * data; creates last, as they grow the stores.
 */
const SHARED_WORKLOADS = [
  { id: 'list-c10', label: 'list c10', request: 'list', connections: 10, node20: true },
  { id: 'list-c100', label: 'list c100', request: 'list', connections: 100 },
  { id: 'get-c10', label: 'get c10', request: 'get', connections: 10, node20: true },
  { id: 'create-c10', label: 'create c10', request: 'create', connections: 10, node20: true },
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
    rounds: quick ? 1 : 3,
    startupRuns: quick ? 3 : 5,
  };
}

function markUnavailable(results, key, error) {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  results.systems[key] = { ...results.systems[key], available: false, reason };
  console.log(`bench: ${key} unavailable: ${reason}`);
}

/** Starts a system; an optional one (Prism) failing is noted and gives undefined. */
async function startOrNote(system, results) {
  try {
    return await startSystem(system);
  } catch (error) {
    if (!system.optional) throw error;
    markUnavailable(results, system.key, error);
    return undefined;
  }
}

/**
 * Spawn to first 200, the CPU time to it, and the RSS once settled, `runs` times per system,
 * round-robin: each figure is the median of its runs.
 */
async function measureStartup(systems, options, results) {
  const runs = Object.fromEntries(
    systems.map((system) => [system.key, { wall: [], cpu: [], rss: [] }]),
  );
  for (let round = 0; round < options.startupRuns; round += 1) {
    for (const system of systems) {
      if (!results.systems[system.key].available) continue;
      const running = await startOrNote(system, results);
      if (running === undefined) continue;
      const { wall, cpu, rss } = runs[system.key];
      wall.push(running.startupMs);
      if (running.startupCpuMs !== null) cpu.push(running.startupCpuMs);
      await sleep(IDLE_SETTLE_MS);
      const idle = rssMiB(running.pid);
      if (idle !== null) rss.push(idle);
      await stopServer(running.server);
    }
  }
  for (const [key, { wall, cpu, rss }] of Object.entries(runs)) {
    if (wall.length === 0) continue;
    results.startup[key] = {
      runsMs: wall,
      medianMs: median(wall),
      cpuRunsMs: cpu,
      cpuMedianMs: cpu.length > 0 ? median(cpu) : null,
    };
    if (rss.length > 0) results.rss[key] = { idleMiB: median(rss), idleRunsMiB: rss };
    console.log(
      `startup ${key}: median ${Math.round(median(wall))} ms of ${wall.map(Math.round).join(', ')}` +
        (cpu.length > 0 ? `; CPU ${Math.round(median(cpu))} ms of ${cpu.join(', ')}` : '') +
        (rss.length > 0 ? `; RSS idle ${median(rss).toFixed(1)} MiB` : ''),
    );
  }
}

function logMeasurement(label, key, m) {
  const failed = m.bad === 0 ? '' : `  ⚠ ${m.bad} failed ${JSON.stringify(m.statusCounts)}`;
  console.log(
    `${label.padEnd(34)} ${key.padEnd(3)}: ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms${failed}`,
  );
}

/**
 * One workload on some running systems: `rounds` rounds, the systems interleaved in each; a
 * workload that grows the store resets it between each warm-up and its measured run, so that
 * every measurement starts from the same store. Resolves with each system's RSS read right after
 * its run in the last round.
 */
async function runWorkload(workload, targets, options, results) {
  results.workloads.push({
    id: workload.id,
    label: workload.label,
    connections: workload.connections ?? 10,
  });
  const rounds = Object.fromEntries(targets.map(([key]) => [key, []]));
  const rightAfterMiB = {};
  const request = REQUESTS[workload.request];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [key, running] of targets) {
      const resets = request.resetsStore === true && running.resetUrl !== undefined;
      const m = await measure(running.baseUrl, request, {
        connections: workload.connections ?? 10,
        seconds: options.seconds,
        warmupSeconds: options.warmupSeconds,
        beforeRun: resets ? () => resetStore(running) : undefined,
      });
      rightAfterMiB[key] = rssMiB(running.pid);
      rounds[key].push(m);
      logMeasurement(`${workload.label} (${round + 1}/${options.rounds})`, key, m);
    }
  }
  results.measurements[workload.id] = Object.fromEntries(
    Object.entries(rounds).map(([key, measurements]) => [key, combineRounds(measurements)]),
  );
  return rightAfterMiB;
}

/** Starts the systems that take part; an optional one failing to start is noted. */
async function startAvailable(systems, results) {
  const running = [];
  for (const system of systems) {
    if (!results.systems[system.key].available) continue;
    const started = await startOrNote(system, results);
    if (started !== undefined) running.push([system.key, started]);
  }
  return running;
}

/** The shared workloads, interleaved over the systems, with each one's RSS read right after. */
async function runSharedWorkloads(systems, options, results) {
  const running = await startAvailable(systems, results);
  for (const [key, server] of running) results.cores.servers[key] = coresOf(server.pid);
  let rightAfterMiB = {};
  for (const workload of SHARED_WORKLOADS) {
    const targets = running.filter(([, server]) => workload.node20 || !server.system.node20);
    rightAfterMiB = await runWorkload(workload, targets, options, results);
  }
  for (const [key] of running) {
    results.rss[key] = { ...results.rss[key], rightAfterLoadMiB: rightAfterMiB[key] };
  }
  await Promise.all(running.map(([, server]) => stopServer(server.server)));
}

/** The data-size workloads (Node 24): 100k-pet filter and scaling, then --db against in memory. */
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

function newResults(options, systems, runtimes) {
  const results = {
    date: new Date().toISOString(),
    quick: options.quick,
    runtimes: {
      runner: process.version,
      node24: runtimes.node24.version,
      node20: runtimes.node20.version ?? null,
    },
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    pinning,
    // What /proc says, so a reader can check the pinning; the load average shows other work.
    cores: { runner: coresOf(process.pid), servers: {} },
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
    settings: {
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      startupRuns: options.startupRuns,
    },
    systems: {},
    workloads: [],
    measurements: {},
    startup: {},
    rss: {},
    targets: [],
  };
  for (const system of systems) {
    const { key, label, column, runtime, unavailable } = system;
    results.systems[key] = { label, column, runtime, available: unavailable === undefined };
    if (unavailable !== undefined) results.systems[key].reason = unavailable;
  }
  return results;
}

/** The runner's own process, on Node 24 (and pinned): measures and writes the results. */
async function main(runtimes) {
  const options = parseOptions(process.argv.slice(2));
  killChildrenOnExit();
  const prism = options.prism
    ? preparePrism({ install: !options.quick })
    : { unavailable: 'skipped (--no-prism)' };
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const systems = defineSystems({
    runtimes,
    prism,
    prismLogFile: join(tmp, 'prism-default.log'),
  });
  const results = newResults(options, systems, runtimes);
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

/** The process npm starts: checks the options, builds, finds the Node binaries, runs the runner. */
function prepare() {
  parseOptions(process.argv.slice(2));
  ensureBuilt();
  const node24 = resolveNode24();
  const node20 = resolveNode20();
  console.log(
    `bench: servers and runner on Node ${node24.version}; ` +
      (node20.version
        ? `c and e also on Node ${node20.version}`
        : `Node 20: ${node20.unavailable}`),
  );
  rerunOnNode24(fileURLToPath(import.meta.url), { node24, node20 });
}

runBench(prepare, main);
