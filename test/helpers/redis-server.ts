/**
 * A real redis-server (Debian's, on PATH) for the tests: started on a free loopback port in a
 * temporary folder, stopped and its folder removed after. Never a fake of Redis.
 *
 * Its default export is the redis project's global setup (jest.config.js), which jest loads
 * outside its module system: so this file imports nothing but Node's modules.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: nothing is written); resolves once it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder (after stop). */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered, as a hung server. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** A port nothing listens on now (the kernel picks it, then it is let go). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** Resolves once something accepts connections on the port (polled; bounded). */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => {
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

/**
 * Starts redis-server with persistence as given (default: none, for speed; `appendfsync` always
 * for the tests that restart it and expect what it acknowledged).
 */
export async function startRedis(options: { persist?: boolean } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...(options.persist === true
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no']),
  ];
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    try {
      await once(started, 'spawn'); // rejects on 'error': not installed, not on PATH
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `cannot start redis-server (${reason}): the Redis tests need Debian's redis-server on PATH (apt-get install -y redis-server)`,
      );
    }
    child = started;
    await accepting(port, started);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  };
  const signal = (name: NodeJS.Signals): void => {
    if (!child || child.exitCode !== null) throw new Error('redis-server is not running');
    child.kill(name);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause: () => {
      signal('SIGSTOP');
    },
    resume: () => {
      signal('SIGCONT');
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The variable that carries the URL of the run's redis-server to the test workers. */
export const REDIS_URL_VARIABLE = 'PETSTORE_TEST_REDIS_URL';

declare global {
  /** The run's redis-server, from the global setup to the global teardown (same process). */
  var petstoreTestRedis: TestRedis | undefined;
}

/**
 * The redis project's global setup: one redis-server for the whole run, its URL in the
 * environment the test workers inherit; test/helpers/redis-global-teardown.ts stops it. Each app
 * on it uses a key prefix of its own (state-backend.ts).
 */
export default async function startRunRedis(): Promise<void> {
  const redis = await startRedis();
  globalThis.petstoreTestRedis = redis;
  process.env[REDIS_URL_VARIABLE] = redis.url;
}
