/** Small HTTP helpers for starting servers: a free port, and polling until the first 200. */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const PROBE_TIMEOUT_MS = 2000;
const POLL_INTERVAL_MS = 5;

/** A port that was free a moment ago (the OS hands out a fresh one for port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** The status of one request without a body (GET unless said) on a fresh connection; 0 when nothing answers. */
export function statusOf(url, headers, method = 'GET') {
  return new Promise((resolve) => {
    const options = { method, headers, agent: false, timeout: PROBE_TIMEOUT_MS };
    const req = request(url, options, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => {
      resolve(0);
    });
    req.end();
  });
}

/**
 * Polls `url` until it answers 200; resolves with the time of that answer (performance.now()).
 * Fails at once if the server process exits, with the tail of its output.
 */
export async function waitFor200(url, headers, server, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (server.exited) throw new Error(`the server exited before answering: ${server.output}`);
    if ((await statusOf(url, headers)) === 200) return performance.now();
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms: ${server.output}`);
}

/** Waits until the server prints `PORT <n>` (the servers in bench/servers listen on port 0). */
export async function printedPort(server, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const match = /^PORT (\d+)$/m.exec(server.output);
    if (match) return Number(match[1]);
    if (server.exited) throw new Error(`the server exited before listening: ${server.output}`);
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`no port printed within ${timeoutMs} ms: ${server.output}`);
}
