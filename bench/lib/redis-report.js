/** The Markdown report of one run of bench/redis.js. */
import { disturbed, ownPathCalls } from './redis-figures.js';
import { busyWarning, table } from './report.js';

const KEYS = ['memory', 'redis'];

const whole = (value) => Math.round(value).toLocaleString('en-US');
const percent = (share) => `${Math.round(share * 100)}%`;
const fixed = (value, digits = 2) => value.toFixed(digits);

function cell(m) {
  if (m === undefined) return '';
  const text = `${whole(m.rps)} · ${m.p99} ms`;
  return m.bad === 0 ? text : `${text} ⚠ ${m.bad} failed`;
}

function throughputTable(results) {
  const rows = results.workloads.map(({ id, label }) => {
    const row = results.measurements[id] ?? {};
    const ratio = results.ratios[id];
    return [
      label,
      ...KEYS.map((key) => cell(row[key])),
      ratio === undefined ? '' : `${fixed(ratio)}×`,
    ];
  });
  return table(
    ['workload', 'in memory: req/s · p99', 'on Redis: req/s · p99', 'Redis / memory'],
    rows,
  );
}

function usageTable(results) {
  const rows = results.workloads.map(({ id, label }) => {
    const usage = results.usage[id] ?? {};
    const { memory, redis } = usage;
    if (memory === undefined || redis === undefined) return [label, '', '', '', '', '', '', ''];
    return [
      label,
      `${percent(memory.serverCore)} / ${percent(redis.serverCore)}`,
      `${whole(memory.serverCpuUsPerRequest)} / ${whole(redis.serverCpuUsPerRequest)}`,
      `${percent(redis.runner)} + ${percent(redis.redis)}`,
      fixed(redis.redisCpuMsPer1000, 1),
      fixed(redis.scripts),
      fixed(redis.commands, 1),
    ];
  });
  return table(
    [
      'workload',
      'server core busy: in memory / on Redis',
      'server CPU µs per request: in memory / on Redis',
      'core 1 in the Redis run: runner + Redis',
      'Redis CPU ms per 1,000 requests',
      'scripts per request',
      'commands per request',
    ],
    rows,
  );
}

/** `beginCall 1.00, record 0.98`: each name's calls per request. */
function namesCell(tally, requests) {
  const entries = Object.entries(tally);
  if (entries.length === 0) return 'none';
  return entries.map(([name, count]) => `${name} ${fixed(count / requests)}`).join(', ');
}

function recordsCell(records) {
  if (records.length === 0) return 'none';
  const carried = records.reduce((sum, value) => sum + value, 0);
  return `${fixed(carried / records.length, 1)} (at most ${Math.max(...records)})`;
}

function countedTable(results, paces) {
  const rows = [];
  for (const { label, paces: figuresOf } of Object.values(results.counted)) {
    for (const pace of paces) {
      const figures = figuresOf[pace.id];
      if (figures === undefined) continue;
      const n = figures.requests;
      const scripts = (figures.commandstats.evalsha ?? 0) + (figures.commandstats.eval ?? 0);
      const all = Object.values(figures.commandstats).reduce((sum, count) => sum + count, 0);
      rows.push([
        label,
        pace.label,
        namesCell(figures.before, n),
        namesCell(figures.after, n),
        fixed(ownPathCalls(figures, n)),
        recordsCell(figures.records),
        `${fixed(scripts / n)} · ${fixed(all / n, 1)}`,
        figures.bad === 0 ? '' : `⚠ ${figures.bad} failed`,
      ]);
    }
  }
  return table(
    [
      'request',
      'pace',
      'run before its answer (per request)',
      'run after the answers',
      'its own calls on the path',
      'calls per RECORD',
      'commandstats: scripts · commands',
      '',
    ],
    rows,
  );
}

function replicasTable(results) {
  const rows = results.workloads.map(({ id, label }) => {
    const estimate = results.replicas[id];
    if (estimate === undefined) return [label, '', '', '', ''];
    return [
      label,
      fixed(estimate.redisCpuMsPer1000, 1),
      whole(estimate.coreRps),
      whole(estimate.replicaRps),
      fixed(estimate.replicas, 1),
    ];
  });
  return table(
    [
      'workload',
      'Redis CPU ms per 1,000 requests',
      'requests/s one Redis core takes',
      'one replica on Redis, req/s',
      'replicas one Redis serves',
    ],
    rows,
  );
}

/** Warns of each workload with a round where the server in memory did not keep its core busy. */
function disturbedLines(results) {
  const lines = [];
  for (const { id, label } of results.workloads) {
    const shares = (results.usage[id]?.memory?.rounds ?? []).map((round) => round.serverCore);
    if (disturbed(results.usage[id])) {
      lines.push(
        `> ⚠ ${label}: the server in memory kept its core only ${shares.map(percent).join(', ')} ` +
          'busy in its rounds: other work took that core, and the figures of this workload are ' +
          'unreliable. Re-run on a quiet machine.',
        '',
      );
    }
  }
  return lines;
}

function targetTable(targets) {
  return table(
    ['target', 'measured', 'goal', 'result'],
    targets.map((t) => [t.target, t.measured, t.goal, t.result]),
  );
}

/** The Markdown report of one run. */
export function renderRedisMarkdown(results) {
  const { settings, runtimes } = results;
  const pinned = results.pinning
    ? `servers on core ${[...new Set(Object.values(results.cores.servers))].join(', ')}, ` +
      `autocannon (the runner) and redis-server on core ${results.cores.runner}`
    : 'not pinned (no taskset or a single core)';
  return [
    `# petstore-mock: one replica on Redis against in memory${results.quick ? ' (quick run: smoke test, not for comparison)' : ''}`,
    '',
    `${results.date} · servers and runner on Node ${runtimes.node24} · redis-server ` +
      `${results.redis.version}, no persistence, on loopback · ${results.cpu} · ${pinned} · load ` +
      `average at start ${results.loadAverageAtStart.join(', ')}. The app as shipped ` +
      '(`dist/cli.js --log-level silent`, the default data: 30 fixture pets) twice: in memory, and ' +
      'with `--state-url` and a fresh `--state-prefix`. Each measurement: ' +
      `${settings.seconds} s at ${settings.connections} connections after a ` +
      `${settings.warmupSeconds} s warm-up, in ${settings.rounds} round(s) with the two servers ` +
      'interleaved (the order alternating), each store reset (POST /__admin/reset) before a ' +
      'measured run of creates; each figure is its median over the rounds.',
    '',
    ...busyWarning(results),
    ...disturbedLines(results),
    '## Throughput and latency',
    '',
    throughputTable(results),
    '',
    '## Cores and Redis during the measured runs',
    '',
    usageTable(results),
    '',
    "Busy: CPU time over wall time. The server's CPU from /proc (in 10 ms ticks), the runner's " +
      "from process.cpuUsage(), Redis's from INFO cpu (used_cpu_user + used_cpu_sys), each read " +
      'before and after the measured run; scripts (EVALSHA and EVAL) and all commands (those the ' +
      'scripts run too, as Redis counts them) from INFO commandstats, reset after the warm-up. ' +
      'Core 1 near 100% would mean the runner and Redis held each other back.',
    '',
    '## Redis calls per pet request',
    '',
    countedTable(results, settings.paces),
    '',
    `${settings.counted} requests of each kind, one after the other on one connection, watched ` +
      'with MONITOR: the bench sends `ECHO` to Redis and awaits it before each request, and again ' +
      "once the answer is in, so a command of the mock's that Redis runs between the two was run " +
      'before that answer. "Its own calls": those, but for the records of earlier requests that ' +
      'the mock sends in front of them (in the same write: no round trip of their own). "calls ' +
      'per RECORD": how many requests\' journal and coverage records each RECORD script carried. ' +
      'commandstats (reset before the requests) counts the same scripts, and the commands they run.',
    '',
    '## Replicas one Redis serves, on paper',
    '',
    replicasTable(results),
    '',
    "Redis's CPU per request as measured above (one replica at 10 connections, loopback, no " +
      'persistence), and one core of it fully busy, as Redis runs commands on one thread: the ' +
      "requests a second it takes, over one replica's measured rate on Redis. See docs/performance.md " +
      'for what the estimate leaves out.',
    '',
    '## Goals (issue 23)',
    '',
    targetTable(results.targets),
    '',
  ].join('\n');
}
