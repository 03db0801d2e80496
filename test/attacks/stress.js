/**
 * npm run stress: the attacks of issue 11 against the built CLI (dist/), one fresh server each,
 * with the server's RSS sampled every 50 ms: before the attack, its peak, and after it. Each
 * attack passes when the server stayed up, answered its health check afterwards and never went
 * past the bound; the run exits 1 otherwise. The server is the bin as users start it, with no
 * NODE_OPTIONS (it applies its own V8 flags): `node dist/cli.js` and the link npm makes in
 * node_modules/.bin, taken in turn. Its RSS is its whole process tree's (on Node 20 the bin runs
 * the mock as a child). Loopback only; every attack is bounded in time and count.
 * Usage: node test/attacks/stress.js [--quick] [--only a,b,c,c-cap,d,slowloris,flood]
 */
import console from 'node:console';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  killChildrenOnExit,
  rssMiB,
  spawnNodeServer,
  stopServer,
} from '../../bench/lib/children.js';
import { freePort, statusOf, waitFor200 } from '../../bench/lib/http-probe.js';
import { projectRoot } from '../../bench/lib/paths.js';

/** Peak RSS the server may reach in any attack, in MiB (docs/limits.md). */
export const BOUND_MIB = 768;

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;

const HOST = '127.0.0.1';
const TOKEN = 'stress';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const SAMPLE_MS = 50;
const SETTLE_MS = quick ? 500 : 3000;
/** How long the server may take to answer its health check once an attack ends. */
const HEALTH_WAIT_MS = quick ? 30_000 : 120_000;
const { fetch } = globalThis;

/** Runs `count` calls of `one(i)` on `workers` concurrent loops, stopping at the deadline. */
async function inParallel(count, workers, deadline, one) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count && performance.now() < deadline) {
        const i = next;
        next += 1;
        await one(i);
      }
    }),
  );
  return next;
}

/** Counts answers by status ('error' for a request that got none). */
function tally() {
  const byStatus = {};
  return {
    byStatus,
    async send(url, init) {
      try {
        const res = await fetch(url, init);
        await res.arrayBuffer();
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      } catch {
        byStatus.error = (byStatus.error ?? 0) + 1;
      }
    },
  };
}

/** Opens a raw connection; resolves once connected (or failed: then with the socket closed). */
function open(port) {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    const state = { socket, closedByServer: false, answered: 0 };
    socket.once('connect', () => resolve(state));
    socket.once('error', () => resolve(state));
    socket.once('close', () => {
      state.closedByServer = !state.destroyedHere;
    });
    socket.on('data', (chunk) => {
      state.answered += chunk.length;
    });
  });
}

function destroyAll(states) {
  for (const state of states) {
    state.destroyedHere = true;
    state.socket.destroy();
  }
}

const largeName = (length) => 'n'.repeat(length);

/** Creates `count` pets with names of `length` characters; how many were created. */
async function createLargePets(origin, count, length) {
  const body = JSON.stringify({ name: largeName(length), categoryId: 1 });
  let created = 0;
  await inParallel(count, 8, Infinity, async () => {
    const res = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    if (res.status === 201) created += 1;
  });
  return created;
}

/** Connections that pipeline `depth` list requests and never read, held for `holdMs`. */
async function pipelineWithoutReading(port, connections, depth, holdMs) {
  const line = `GET /v1/pets?limit=100 HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
  const states = await Promise.all(Array.from({ length: connections }, () => open(port)));
  for (const { socket } of states) {
    socket.pause(); // never read: the answers stay with the server and the kernel
    socket.write(line.repeat(depth));
  }
  await sleep(holdMs);
  const closedByServer = states.filter((s) => s.closedByServer).length;
  destroyAll(states);
  return { connections, pipelined: depth, closedByServer };
}

const ATTACKS = [
  {
    id: 'a',
    name: 'creates with 100 kB names',
    args: [],
    async run({ origin }) {
      const total = quick ? 4000 : 20000;
      const body = JSON.stringify({ name: largeName(100_000), categoryId: 1 });
      const { byStatus, send } = tally();
      const sent = await inParallel(total, 16, performance.now() + (quick ? 8_000 : 90_000), () =>
        send(`${origin}/v1/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'Content-Type': 'application/json' },
          body,
        }),
      );
      return { sent, byStatus };
    },
  },
  {
    id: 'b',
    name: '100 sessions x requests to /v1/pets/<15,500 digits>',
    args: [],
    async run({ origin }) {
      const perSession = quick ? 300 : 1000;
      const path = `/v1/pets/${'1'.repeat(15_500)}`;
      const { byStatus, send } = tally();
      const sent = await inParallel(
        100 * perSession,
        16,
        performance.now() + (quick ? 8_000 : 120_000),
        (i) => send(`${origin}${path}`, { headers: { ...AUTH, 'X-Mock-Session': `s${i % 100}` } }),
      );
      return { sessions: 100, perSession, sent, byStatus };
    },
  },
  {
    id: 'c',
    name: '100 connections pipelining 2,000 lists of large pets, never reading',
    args: ['--seed', '1', '--count', '0'],
    setup: ({ origin }) => createLargePets(origin, 100, 99_000),
    run: ({ port }) => pipelineWithoutReading(port, 100, 2000, quick ? 4000 : 10_000),
  },
  {
    id: 'c-cap',
    name: 'the same within the pipelining cap: connections x 50 lists, never reading',
    args: ['--seed', '1', '--count', '0'],
    setup: ({ origin }) => createLargePets(origin, 100, 99_000),
    run: ({ port }) => pipelineWithoutReading(port, quick ? 20 : 100, 50, quick ? 6000 : 15_000),
  },
  {
    id: 'd',
    name: 'sessions against --count 1000000 (250000 in quick mode)',
    args: ['--count', quick ? '250000' : '1000000'],
    async run({ origin }) {
      const sessions = quick ? 150 : 400;
      const { byStatus, send } = tally();
      await inParallel(sessions, 8, performance.now() + (quick ? 8_000 : 120_000), async (i) => {
        const headers = { ...AUTH, 'X-Mock-Session': `d${i}` };
        await send(`${origin}/v1/pets?limit=100`, { headers });
        await send(`${origin}/v1/pets`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `d${i}`, categoryId: 1 }),
        });
      });
      return { sessions, byStatus };
    },
  },
  {
    id: 'slowloris',
    name: 'slowloris: more connections than the cap, headers one line a second',
    // Quick mode shortens the timeouts so that they fire within the attack.
    args: quick ? ['--headers-timeout', '2000', '--request-timeout', '4000'] : [],
    async run({ port, origin }) {
      const count = 1200;
      const seconds = quick ? 5 : 14;
      const states = await Promise.all(Array.from({ length: count }, () => open(port)));
      for (const { socket } of states) socket.write(`GET /v1/pets HTTP/1.1\r\nHost: ${HOST}\r\n`);
      const during = tally();
      for (let s = 0; s < seconds; s += 1) {
        for (const { socket } of states) if (!socket.destroyed) socket.write(`X-S${s}: 1\r\n`);
        await during.send(`${origin}/__admin/health`, {});
        await sleep(1000);
      }
      const closedByServer = states.filter((s) => s.closedByServer).length;
      destroyAll(states);
      return { connections: count, seconds, closedByServer, healthDuring: during.byStatus };
    },
  },
  {
    id: 'flood',
    name: 'connection flood: idle connections past the cap, then connect/close churn',
    args: [],
    async run({ port }) {
      const count = quick ? 3000 : 6000;
      const states = await Promise.all(Array.from({ length: count }, () => open(port)));
      await sleep(quick ? 1500 : 4000);
      const closedByServer = states.filter((s) => s.closedByServer).length;
      destroyAll(states);
      const deadline = performance.now() + (quick ? 2000 : 5000);
      let churned = 0;
      await inParallel(Infinity, 100, deadline, async () => {
        const state = await open(port);
        churned += 1;
        destroyAll([state]);
      });
      return { connections: count, closedByServer, churned };
    },
  },
];

/** A node_modules/.bin as npm makes it on install: a link to the bin, dist/cli.js. */
const installDir = mkdtempSync(join(tmpdir(), 'petstore-stress-'));
mkdirSync(join(installDir, 'node_modules', '.bin'), { recursive: true });
const binLink = join(installDir, 'node_modules', '.bin', 'petstore-mock');
symlinkSync(join(projectRoot, 'dist', 'cli.js'), binLink);
process.on('exit', () => {
  rmSync(installDir, { recursive: true, force: true });
});

/** How users start the bin, with no NODE_OPTIONS: the attacks take them in turn. */
const LAUNCHES = [
  { name: 'node dist/cli.js', script: 'dist/cli.js' },
  // What the link's `#!/usr/bin/env node` runs.
  { name: 'node_modules/.bin/petstore-mock', script: binLink },
];

async function runAttack(attack, launch) {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const server = spawnNodeServer([
    launch.script,
    '--port',
    String(port),
    '--log-level',
    'warn',
    ...attack.args,
  ]);
  let closedLines = 0;
  server.child.stdout.on('data', (chunk) => {
    closedLines += String(chunk).split('connection closed').length - 1;
  });
  await waitFor200(`${origin}/__admin/health`, {}, server, 60_000);
  const setup = attack.setup ? await attack.setup({ origin, port }) : undefined;
  const before = rssMiB(server.child.pid);
  let peak = before;
  const sampler = setInterval(() => {
    const rss = rssMiB(server.child.pid);
    if (rss !== null) peak = Math.max(peak, rss);
  }, SAMPLE_MS);
  const started = performance.now();
  let detail;
  try {
    detail = await attack.run({ origin, port });
  } catch (error) {
    detail = { error: String(error) };
  }
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  // Work the attack queued (answers being built) may keep the server busy for a while after it.
  let healthy = false;
  while (!server.exited && !healthy && performance.now() - ended < HEALTH_WAIT_MS) {
    healthy = (await statusOf(`${origin}/__admin/health`, {})) === 200;
    if (!healthy) await sleep(250);
  }
  const healthyAfterS = healthy ? Number(((performance.now() - ended) / 1000).toFixed(1)) : null;
  await sleep(SETTLE_MS);
  clearInterval(sampler);
  const alive = !server.exited;
  const after = alive ? rssMiB(server.child.pid) : null;
  healthy = healthy && alive && (await statusOf(`${origin}/__admin/health`, {})) === 200;
  await stopServer(server);
  const pass = alive && healthy && peak <= BOUND_MIB;
  return {
    id: attack.id,
    name: attack.name,
    launch: launch.name,
    args: attack.args.join(' '),
    setup,
    rssMiB: { before, peak, after },
    alive,
    healthy,
    healthyAfterS,
    seconds: Number(seconds.toFixed(1)),
    closedByServer: closedLines,
    detail,
    pass,
    tail: alive ? undefined : server.output.slice(-600),
  };
}

const mib = (value) => (value === null || value === undefined ? '-' : value.toFixed(0));

killChildrenOnExit();
const started = performance.now();
const results = [];
for (const attack of ATTACKS) {
  if (only && !only.has(attack.id)) continue;
  const result = await runAttack(attack, LAUNCHES[results.length % LAUNCHES.length]);
  results.push(result);
  console.log(JSON.stringify(result));
}
console.log(
  `\nstress${quick ? ' --quick' : ''}: peak RSS bound ${BOUND_MIB} MiB, node ${process.version}`,
);
console.log(
  'attack     | started as                      | before | peak | after | alive | healthy after | attack s | verdict',
);
for (const r of results) {
  console.log(
    `${r.id.padEnd(10)} | ${r.launch.padEnd(31)} | ${mib(r.rssMiB.before).padStart(6)} | ${mib(r.rssMiB.peak).padStart(4)} | ${mib(r.rssMiB.after).padStart(5)} | ${String(r.alive).padEnd(5)} | ${(r.healthy ? `${r.healthyAfterS} s` : 'no').padEnd(13)} | ${String(r.seconds).padEnd(8)} | ${r.pass ? 'pass' : 'FAIL'}`,
  );
}
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = results.every((r) => r.pass) ? 0 : 1;
