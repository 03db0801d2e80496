/**
 * Debian's redis-server (on PATH, as CI installs it) for the Redis bench: on a free loopback
 * port, in a temporary folder, without persistence, on the runner's core so that it never takes
 * the server's. Tracked with the servers: stopped at the end, and killed on Ctrl-C.
 */
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUNNER_CORE, spawnNodeServer } from './children.js';
import { freePort } from './http-probe.js';

const REDIS_SERVER = 'redis-server';
const START_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 25;

/** `redis-server --version`'s version (e.g. 7.0.15); throws saying how to install it. */
export function redisServerVersion() {
  const result = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  const version = /v=(\S+)/.exec(result.stdout ?? '')?.[1];
  if (result.status !== 0 || version === undefined) {
    throw new Error(
      `no ${REDIS_SERVER} on PATH (${result.error?.message ?? (result.stderr || 'no version')}): apt-get install -y redis-server`,
    );
  }
  return version;
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
  });
}

/** Starts redis-server in `dir`; resolves once it accepts connections, with its URL and pid. */
export async function startRedisServer(dir) {
  const port = await freePort();
  const server = spawnNodeServer(
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { node: REDIS_SERVER, core: RUNNER_CORE },
  );
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (server.exited) throw new Error(`redis-server exited: ${server.output}`);
    if (performance.now() > deadline) {
      server.child.kill('SIGKILL');
      throw new Error(`redis-server did not listen on ${port}: ${server.output}`);
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return { server, pid: server.child.pid, url: `redis://127.0.0.1:${port}` };
}
