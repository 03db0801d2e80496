/**
 * Small HTTP helpers for starting servers: a free port, polling until the first 200 (or the
 * first answer), and one timed request.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const PROBE_TIMEOUT_MS = 2000;
export const POLL_INTERVAL_MS = 5;

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

/**
 * One GET on a fresh connection, timed from sending it to the last byte of its answer:
 * `{ status, ms, at }` (`at`: performance.now() at that byte); status 0 when nothing answered,
 * or not within `timeoutMs` of silence.
 */
export function timedGet(url, headers, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const done = (status) => {
      const at = performance.now();
      resolve({ status, ms: at - started, at });
    };
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      res.on('end', () => {
        done(res.statusCode ?? 0);
      });
      res.on('error', () => {
        done(0);
      });
      res.resume();
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => {
      done(0);
    });
    req.end();
  });
}

/**
 * Polls `url` with GET until anything answers, whatever the status: resolves with that answer
 * (timedGet's). Fails at once if the server process exits, and after `timeoutMs` in all.
 */
export async function waitForAnswer(url, headers, server, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  for (let left = timeoutMs; left > 0; left = deadline - performance.now()) {
    if (server.exited) throw new Error(`the server exited before answering: ${server.output}`);
    const answer = await timedGet(url, headers, left);
    if (answer.status !== 0) return answer;
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms: ${server.output}`);
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
