/**
 * npm run bench:redis (and the end of npm run bench): one replica on Redis against one in memory,
 * in one run (issue 23). Starts Debian's redis-server (a temporary folder, no persistence) and the
 * app as shipped twice on Node 24 with the same (default) data: in memory, and with --state-url
 * and a fresh --state-prefix. The servers run on core 0; this runner (autocannon) and redis-server
 * on core 1, so that Redis never takes the replica's core.
 * - list, get and create at 10 connections, in rounds (3; 1 with --quick), the two servers
 *   interleaved, each store reset before a measured run of creates: the median round's req/s and
 *   p99, and Redis over memory;
 * - during each measured run on Redis, Redis's CPU (INFO cpu) and commands (INFO commandstats)
 *   per request, and how busy each core was;
 * - Redis's commands per pet request, over sequential requests of each kind, with MONITOR and
 *   markers telling those run before the answer from those after, checked against commandstats;
 * - on paper, the replicas one Redis core serves at the measured rates.
 * Writes bench/results/redis-latest.{md,json}. Not a test: nothing is asserted.
 * Usage: node bench/redis.js [--quick]
 */
import console from 'node:console';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { coresOf, cpuMs, killChildrenOnExit, pinning, stopAll } from './lib/children.js';
import { REQUESTS, measure } from './lib/load.js';
import { projectRoot, resultsDir } from './lib/paths.js';
import {
  GOALS,
  MARKERS,
  commandCalls,
  judgeGoals,
  perRequest,
  replicasPerRedis,
  scriptNames,
  splitByAnswer,
  usedCpuSeconds,
} from './lib/redis-figures.js';
import { renderRedisMarkdown } from './lib/redis-report.js';
import { redisServerVersion, startRedisServer } from './lib/redis-server.js';
import { combineRounds, median } from './lib/rounds.js';
import { ensureBuilt, rerunOnNode24, runBench } from './lib/runner.js';
import { resolveNode24 } from './lib/runtimes.js';
import { AUTH, defineSystems, resetStore, startSystem } from './lib/systems.js';

const CONNECTIONS = 10;

const WORKLOADS = [
  { id: 'list-c10', label: 'list c10', request: 'list' },
  { id: 'get-c10', label: 'get c10', request: 'get' },
  { id: 'create-c10', label: 'create c10', request: 'create' },
];

/**
 * The requests counted one by one: the three of the workloads, and the two that also read what
 * Redis keeps (a pet created there; a list longer than the initial pets). `afterCreate`: needs
 * a pet created first (its id fills the path).
 */
const COUNTED = [
  { id: 'get', label: 'get an initial pet (GET /pets/1)', request: REQUESTS.get },
  { id: 'list', label: 'list (GET /pets: 20 of the initial pets)', request: REQUESTS.list },
  { id: 'create', label: 'create (POST /pets)', request: REQUESTS.create },
  {
    id: 'get-added',
    label: 'get a pet created on Redis',
    request: { path: '/pets/:id', method: 'GET', expect: 200 },
    afterCreate: true,
  },
  {
    id: 'list-100',
    label: 'list limit 100 (the initial pets, then those on Redis)',
    request: { path: '/pets?limit=100', method: 'GET', expect: 200 },
  },
];

/**
 * How the counted requests follow each other: at once (the next request's calls may carry the
 * records of those before), and 10 ms apart (past the 5 ms within which records are sent).
 */
const PACES = [
  { id: 'back-to-back', label: 'back to back', gapMs: 0 },
  { id: 'apart', label: '10 ms apart', gapMs: 10 },
];

/** Records are sent within 5 ms of an answer (redis-state.ts): wait longer before counting. */
const SETTLE_MS = 50;
const MONITOR_TIMEOUT_MS = 5000;

function parseOptions(argv) {
  const unknown = argv.filter((arg) => arg !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')} (--quick)`);
  const quick = argv.includes('--quick');
  return {
    quick,
    seconds: quick ? 1 : 5,
    warmupSeconds: quick ? 0.5 : 1,
    rounds: quick ? 1 : 3,
    counted: quick ? 50 : 200,
  };
}

/** The app as shipped (run.js's c), under a name of this bench. */
function shippedSystem(runtimes, key, column) {
  const systems = defineSystems({
    runtimes: { ...runtimes, node20: { unavailable: 'not used here' } },
    prism: { unavailable: 'not used here' },
  });
  const shipped = systems.find((system) => system.key === 'c');
  if (shipped === undefined) throw new Error('no shipped system in systems.js');
  return { ...shipped, key, column };
}

/** A client of the bench's own, for INFO, CONFIG RESETSTAT, CLIENT LIST and the markers. */
async function connectAdmin(url) {
  const admin = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectionName: 'petstore-bench',
  });
  admin.on('error', () => undefined);
  await admin.connect();
  return admin;
}

/** What the cores and Redis had used at one moment. */
async function usageNow(running, admin) {
  return {
    wall: performance.now(),
    server: cpuMs(running.pid),
    runner: process.cpuUsage(),
    redis: admin === undefined ? null : usedCpuSeconds(await admin.info('cpu')),
  };
}

/** Busy shares of the window between two readings, and Redis's cost per request. */
function usageBetween(start, end, requests, calls) {
  const wallMs = end.wall - start.wall;
  const runner = process.cpuUsage(start.runner);
  const serverMs = end.server - start.server;
  const usage = {
    serverCore: serverMs / wallMs,
    serverCpuUsPerRequest: (serverMs * 1000) / requests,
    runner: (runner.user + runner.system) / 1000 / wallMs,
  };
  if (end.redis === null || start.redis === null) return usage;
  const redisCpuMs = (end.redis - start.redis) * 1000;
  return {
    ...usage,
    redis: redisCpuMs / wallMs,
    redisCpuMsPer1000: (redisCpuMs / requests) * 1000,
    ...perRequest(calls, requests),
  };
}

/**
 * One measured run of a workload on one server; on Redis, with Redis's CPU and commands over the
 * measured run alone (read after the warm-up and the reset).
 */
async function measureRound(running, request, options, admin) {
  let start;
  const m = await measure(running.baseUrl, request, {
    connections: CONNECTIONS,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    beforeRun: async () => {
      if (request.resetsStore === true) await resetStore(running);
      if (admin !== undefined) await admin.config('RESETSTAT');
      start = await usageNow(running, admin);
    },
  });
  // The records of the last answers go out within 5 ms: count them with the run.
  await sleep(SETTLE_MS);
  const end = await usageNow(running, admin);
  const calls = admin === undefined ? {} : commandCalls(await admin.info('commandstats'));
  return { m, usage: usageBetween(start, end, m.requests, calls) };
}

/** The median of each figure over the rounds; the rounds are kept. */
function combineUsage(rounds) {
  const combined = {};
  for (const field of Object.keys(rounds[0] ?? {})) {
    combined[field] = median(rounds.map((round) => round[field]));
  }
  return { ...combined, rounds };
}

function logRound(label, key, m, usage) {
  const failed = m.bad === 0 ? '' : `  ⚠ ${m.bad} failed ${JSON.stringify(m.statusCounts)}`;
  const redis =
    usage.redis === undefined
      ? ''
      : `  Redis ${(usage.redis * 100).toFixed(0)}% (${usage.redisCpuMsPer1000.toFixed(1)} ms/1k req), ${usage.scripts.toFixed(2)} scripts/req`;
  console.log(
    `${label.padEnd(18)} ${key.padEnd(6)}: ${Math.round(m.rps).toString().padStart(6)} req/s  p99 ${m.p99} ms  server core ${(usage.serverCore * 100).toFixed(0)}%${redis}${failed}`,
  );
}

/** The workloads, in rounds, the two servers interleaved (the order alternating each round). */
async function runWorkloads(servers, admin, options, results) {
  for (const workload of WORKLOADS) {
    const request = REQUESTS[workload.request];
    const rounds = { memory: [], redis: [] };
    for (let round = 0; round < options.rounds; round += 1) {
      const order = round % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory'];
      for (const key of order) {
        const onRedis = key === 'redis' ? admin : undefined;
        const measured = await measureRound(servers[key], request, options, onRedis);
        rounds[key].push(measured);
        logRound(
          `${workload.label} (${round + 1}/${options.rounds})`,
          key,
          measured.m,
          measured.usage,
        );
      }
    }
    results.measurements[workload.id] = {};
    results.usage[workload.id] = {};
    for (const [key, measured] of Object.entries(rounds)) {
      results.measurements[workload.id][key] = combineRounds(measured.map(({ m }) => m));
      results.usage[workload.id][key] = combineUsage(measured.map(({ usage }) => usage));
    }
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request on the kept-alive connection: its status and body. */
function send(baseUrl, request, path = request.path) {
  return new Promise((resolve, reject) => {
    const headers = request.body ? { ...AUTH, 'Content-Type': 'application/json' } : AUTH;
    const req = httpRequest(
      `${baseUrl}${path}`,
      { method: request.method, headers, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.once('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.once('error', reject);
    req.end(request.body);
  });
}

/** The addresses of the mock's connections to Redis (it names them petstore-mock). */
async function mockSources(admin) {
  const list = String(await admin.client('LIST'));
  const sources = new Set();
  for (const line of list.split('\n')) {
    const addr = /\baddr=(\S+)/.exec(line)?.[1];
    if (addr !== undefined && /\bname=petstore-mock\b/.test(line)) sources.add(addr);
  }
  if (sources.size === 0) throw new Error('the mock has no connection named petstore-mock');
  return sources;
}

/**
 * `count` requests one after the other, each between the markers (ECHO, awaited: Redis has run
 * the first before the request is sent, and the second after its answer is in), watched with
 * MONITOR; then commandstats, once the records are sent.
 */
async function countRequests(running, admin, request, path, count, gapMs) {
  const monitor = await admin.monitor();
  const events = [];
  monitor.on('monitor', (_time, args, source) => {
    events.push({ args, source });
  });
  try {
    await admin.config('RESETSTAT');
    let bad = 0;
    for (let i = 0; i < count; i += 1) {
      await admin.echo(MARKERS.sent);
      const { status } = await send(running.baseUrl, request, path);
      await admin.echo(MARKERS.answered);
      if (status !== request.expect) bad += 1;
      if (gapMs > 0) await sleep(gapMs);
    }
    await sleep(SETTLE_MS);
    const calls = commandCalls(await admin.info('commandstats'));
    await admin.echo('bench:done');
    const deadline = performance.now() + MONITOR_TIMEOUT_MS;
    while (!events.some(({ args }) => args[1] === 'bench:done')) {
      if (performance.now() > deadline) throw new Error('MONITOR did not show the last marker');
      await sleep(10);
    }
    return { events, calls, bad };
  } finally {
    monitor.disconnect();
  }
}

/** Redis's commands per pet request, by kind and pace, split at the answer. */
async function countRoundTrips(servers, admin, scripts, options, results) {
  const running = servers.redis;
  const names = scriptNames(scripts);
  const sources = await mockSources(admin);
  await resetStore(running);
  const created = await send(running.baseUrl, REQUESTS.create);
  const addedId = JSON.parse(created.body).id;
  for (const kind of COUNTED) {
    const path = kind.afterCreate ? kind.request.path.replace(':id', addedId) : kind.request.path;
    results.counted[kind.id] = { label: kind.label, paces: {} };
    for (const pace of PACES) {
      const counted = await countRequests(
        running,
        admin,
        kind.request,
        path,
        options.counted,
        pace.gapMs,
      );
      const split = splitByAnswer(counted.events, {
        mockSources: sources,
        names,
        arity: scripts.RECORD_ARITY,
      });
      const figures = {
        requests: options.counted,
        bad: counted.bad,
        ...split,
        commandstats: counted.calls,
      };
      results.counted[kind.id].paces[pace.id] = figures;
      console.log(
        `counted ${kind.id} ${pace.label}: before the answer ${JSON.stringify(split.before)}, after ${JSON.stringify(split.after)}, records per RECORD ${JSON.stringify(summaryOf(split.records))}${counted.bad > 0 ? `  ⚠ ${counted.bad} failed` : ''}`,
      );
    }
  }
}

function summaryOf(values) {
  if (values.length === 0) return { calls: 0 };
  return {
    calls: values.length,
    carried: values.reduce((sum, value) => sum + value, 0),
    largest: Math.max(...values),
  };
}

/** Each workload's ratio, the replicas one Redis core serves at its rates, and the goals. */
function figureOut(results) {
  for (const workload of WORKLOADS) {
    const { memory, redis } = results.measurements[workload.id];
    results.ratios[workload.id] = redis.rps / memory.rps;
    const usage = results.usage[workload.id].redis;
    results.replicas[workload.id] = {
      redisCpuMsPer1000: usage.redisCpuMsPer1000,
      replicaRps: redis.rps,
      ...replicasPerRedis(usage.redisCpuMsPer1000 / 1000 / 1000, redis.rps),
    };
  }
  results.targets = judgeGoals(results);
}

function newResults(options, runtimes, redisVersion) {
  return {
    date: new Date().toISOString(),
    quick: options.quick,
    runtimes: { runner: process.version, node24: runtimes.node24.version },
    redis: { version: redisVersion, persistence: 'none (--save "" --appendonly no)' },
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    pinning,
    cores: { runner: coresOf(process.pid), servers: {}, redis: null },
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
    settings: {
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      connections: CONNECTIONS,
      counted: options.counted,
      paces: PACES,
    },
    goals: GOALS,
    workloads: WORKLOADS.map(({ id, label }) => ({ id, label })),
    measurements: {},
    usage: {},
    ratios: {},
    counted: {},
    replicas: {},
    targets: [],
  };
}

function writeResults(results) {
  mkdirSync(resultsDir, { recursive: true });
  const markdown = renderRedisMarkdown(results);
  writeFileSync(join(resultsDir, 'redis-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'redis-latest.md'), markdown);
  console.log(`\n${markdown}`);
  console.log(`bench: written to ${join('bench', 'results', 'redis-latest.{md,json}')}`);
}

/** The runner's own process, on Node 24 (and pinned): measures and writes the results. */
async function main(runtimes) {
  const options = parseOptions(process.argv.slice(2));
  killChildrenOnExit();
  const scriptsUrl = pathToFileURL(join(projectRoot, 'dist', 'state', 'redis-scripts.js'));
  const scripts = await import(scriptsUrl.href);
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-bench-redis-'));
  const results = newResults(options, runtimes, redisServerVersion());
  let admin;
  try {
    const redis = await startRedisServer(tmp);
    results.cores.redis = coresOf(redis.pid);
    admin = await connectAdmin(redis.url);
    const prefix = `petstore-bench-${process.pid}:`;
    const servers = {
      memory: await startSystem(shippedSystem(runtimes, 'memory', 'in memory')),
      redis: await startSystem(shippedSystem(runtimes, 'redis', 'on Redis'), [
        '--state-url',
        redis.url,
        '--state-prefix',
        prefix,
      ]),
    };
    for (const [key, running] of Object.entries(servers)) {
      results.cores.servers[key] = coresOf(running.pid);
    }
    await runWorkloads(servers, admin, options, results);
    await countRoundTrips(servers, admin, scripts, options, results);
    figureOut(results);
    writeResults(results);
  } finally {
    admin?.disconnect();
    agent.destroy();
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The process npm starts: checks the options and redis-server, builds, runs the runner. */
function prepare() {
  parseOptions(process.argv.slice(2));
  redisServerVersion();
  ensureBuilt();
  const node24 = resolveNode24();
  console.log(`bench: Redis bench, servers and runner on Node ${node24.version}`);
  rerunOnNode24(fileURLToPath(import.meta.url), { node24 });
}

runBench(prepare, main);
