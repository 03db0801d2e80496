// npm run soak: 60 s of mixed traffic against the shipped CLI (creates, lists, gets, Prefer codes,
// X-Mock-Scenario, admin scenario switching and resets, 500 distinct sessions against a bound of
// 100, network faults) plus 200 slowloris connections, sampling the server's RSS every 5 s.
// It reports, it does not assert: memory is judged by the start, end and peak it prints.
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { killChildrenOnExit, rssMiB, spawnNodeServer, stopAll } from './lib/children.js';
import { freePort, waitFor200 } from './lib/http-probe.js';
import { resultsDir } from './lib/paths.js';

const seconds = Number(process.argv[2] ?? 60);
const WORKERS = 16;
const SLOW_CLIENTS = 200;
const SESSIONS = 500;
const AUTH = { Authorization: 'Bearer soak' };
const { fetch } = globalThis;

killChildrenOnExit();
const port = await freePort();
const server = spawnNodeServer(['dist/cli.js', '--port', String(port), '--log-level', 'silent']);
const origin = `http://127.0.0.1:${port}`;
await waitFor200(`${origin}/v1/pets`, AUTH, server, 20_000);

let seed = 42;
/** A small seeded generator, so two soak runs send the same traffic. */
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (items) => items[Math.floor(random() * items.length)];

const counts = { requests: 0, byStatus: {}, socketErrors: 0 };
const count = (status) => {
  counts.requests += 1;
  counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
};

/** One request of the mix; answers and socket errors are counted, never thrown. */
async function oneRequest() {
  const session = `s${Math.floor(random() * SESSIONS)}`;
  const headers = { ...AUTH, 'X-Mock-Session': session };
  const roll = random();
  let url = `${origin}/v1/pets?limit=${1 + Math.floor(random() * 100)}`;
  let init = { headers };
  if (roll < 0.3) {
    url = `${origin}/v1/pets`;
    init = {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `soak-${counts.requests}`, categoryId: 1 }),
    };
  } else if (roll < 0.45) url = `${origin}/v1/pets/${1 + Math.floor(random() * 40)}`;
  else if (roll < 0.55) init.headers = { ...headers, Prefer: `code=${pick(['200', '401'])}` };
  else if (roll < 0.62) {
    init.headers = { ...headers, 'X-Mock-Scenario': pick(['empty-catalogue', 'unauthorized']) };
  } else if (roll < 0.64) {
    init.headers = {
      ...headers,
      'X-Mock-Scenario': pick(['connection-reset', 'connection-closed']),
    };
  } else if (roll < 0.7) {
    url = `${origin}/__admin/scenario`;
    init = {
      method: 'PUT',
      headers: { 'X-Mock-Session': session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: pick(['not-found', 'empty-catalogue']), times: 3 }),
    };
  } else if (roll < 0.73) {
    url = `${origin}/__admin/reset`;
    init = { method: 'POST', headers: { 'X-Mock-Session': session } };
  } else if (roll < 0.75) url = `${origin}/__admin/requests?limit=20`;
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    count(res.status);
  } catch {
    counts.socketErrors += 1;
  }
}

function slowloris() {
  return Array.from({ length: SLOW_CLIENTS }, () => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    });
    socket.on('error', () => undefined);
    return socket;
  });
}

const samples = [{ at: 0, rssMiB: rssMiB(server.child.pid) }];
const started = performance.now();
const deadline = started + seconds * 1000;
const slow = slowloris();
const sampler = setInterval(() => {
  samples.push({
    at: Math.round((performance.now() - started) / 1000),
    rssMiB: rssMiB(server.child.pid),
  });
}, 5000);
await Promise.all(
  Array.from({ length: WORKERS }, async () => {
    while (performance.now() < deadline) await oneRequest();
  }),
);
clearInterval(sampler);
for (const socket of slow) socket.destroy();
samples.push({
  at: Math.round((performance.now() - started) / 1000),
  rssMiB: rssMiB(server.child.pid),
});
const alive = (await fetch(`${origin}/__admin/health`)).status === 200;
await stopAll();

const fivexx = Object.entries(counts.byStatus)
  .filter(([status]) => status.startsWith('5'))
  .reduce((sum, [, n]) => sum + n, 0);
const rss = samples.map((s) => s.rssMiB);
const report = {
  seconds,
  requests: counts.requests,
  perSecond: Math.round(counts.requests / seconds),
  byStatus: counts.byStatus,
  socketErrors: counts.socketErrors,
  fivexx,
  slowClients: SLOW_CLIENTS,
  healthyAfter: alive,
  rssMiB: { start: rss[0], end: rss.at(-1), peak: Math.max(...rss) },
  samples,
};
writeFileSync(join(resultsDir, 'soak.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ ...report, samples: undefined }, null, 2));
console.log(
  `samples (s: MiB): ${samples.map((s) => `${s.at}: ${s.rssMiB.toFixed(1)}`).join(', ')}`,
);
process.exitCode = fivexx === 0 && alive ? 0 : 1;
