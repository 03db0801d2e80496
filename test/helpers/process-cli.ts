import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/** The built command line (`npm run build` first; `npm test` builds before jest). */
export const CLI_PATH = join(packageRoot, 'dist', 'cli.js');

/** How long a wait for a child may take before it is reported as stuck (not a timing assertion). */
const WAIT_LIMIT_MS = 20_000;

/** A spawned CLI whose output is collected. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** All of stdout so far. */
  stdout(): string;
  /** All of stderr so far. */
  stderr(): string;
  /** Resolves when the process has exited, with its code and signal. */
  readonly exited: Promise<CliExit>;
}

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI that logged its start line. */
export interface RunningCli extends CliProcess {
  /** The base URL of the pet API, from the start line, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
}

const children = new Set<ChildProcess>();

/** The environment of the test run without the mock's own variables, plus `env`. */
function cleanEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('MOCK_') && name !== 'PORT' && name !== 'HOST',
    ),
  );
  return { ...base, ...env };
}

/** Spawns `node dist/cli.js ...args`; the child is killed by `killAllClis`. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  return spawnCommand(process.execPath, [CLI_PATH, ...args], env);
}

/** Spawns `file ...args` in the package's folder (npm start, another Node); as spawnCli. */
export function spawnCommand(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): CliProcess {
  const child = spawn(file, args, {
    cwd: packageRoot,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<CliExit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout: out, stderr: err });
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs the CLI to its end (killing it if it does not end) and returns how it exited. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const cli = spawnCli(args, env);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), WAIT_LIMIT_MS);
  try {
    return await cli.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Every stdout line, parsed as JSON; throws on a line that is not JSON. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error(`not a JSON object log line: ${line}`);
      }
      return Object.fromEntries(Object.entries(parsed));
    });
}

function startUrl(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'msg' in parsed &&
      typeof parsed.msg === 'string' &&
      parsed.msg.startsWith('serving the ') &&
      'url' in parsed &&
      typeof parsed.url === 'string'
    ) {
      return parsed.url;
    }
  }
  return undefined;
}

/** Resolves once `ready()` holds, re-checking as output arrives; rejects if the child ends. */
function until<T>(cli: CliProcess, ready: () => T | undefined, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (why: string): void => {
      done();
      reject(new Error(`${why}\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`));
    };
    const check = (): boolean => {
      const value = ready();
      if (value === undefined) return false;
      done();
      resolve(value);
      return true;
    };
    const onData = (): void => {
      check();
    };
    const timer = setTimeout(() => {
      fail(`no ${what} yet`);
    }, WAIT_LIMIT_MS);
    const done = (): void => {
      clearTimeout(timer);
      cli.child.stdout?.off('data', onData);
    };
    cli.child.stdout?.on('data', onData);
    void cli.exited.then(() => {
      if (!check()) fail(`the CLI ended before ${what}`);
    });
    check();
  });
}

/** Starts the CLI and waits for its start line; the url is the pet API's base URL. */
export async function startCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<RunningCli> {
  return startCommand(process.execPath, [CLI_PATH, ...args], env);
}

/** Starts `file ...args` (a command that runs the CLI) and waits for the CLI's start line. */
export async function startCommand(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<RunningCli> {
  const cli = spawnCommand(file, args, env);
  const url = await until(cli, () => startUrl(cli.stdout()), 'start line');
  return { ...cli, url };
}

/** Waits until the server at `origin` answers its health check (for a CLI that logs nothing). */
export async function waitForHealth(cli: CliProcess, origin: string): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    if (cli.child.exitCode !== null || cli.child.signalCode !== null) {
      throw new Error(`the CLI ended before it was healthy\nstderr: ${cli.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`no health check answered at ${origin}`);
    try {
      const res = await fetch(`${origin}/__admin/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A port that was free a moment ago, for a CLI that cannot report the port it got. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address !== 'string') resolve(address.port);
        else reject(new Error('no TCP address'));
      });
    });
  });
}

/** Sends SIGTERM and waits for the exit. */
export async function stopCli(cli: CliProcess): Promise<CliExit> {
  cli.child.kill('SIGTERM');
  return cli.exited;
}

/** Kills every CLI still running (afterEach/afterAll), and waits for them to be gone. */
export async function killAllClis(): Promise<void> {
  const running = [...children];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            children.delete(child);
            resolve();
            return;
          }
          child.once('close', () => {
            resolve();
          });
          child.kill('SIGKILL');
        }),
    ),
  );
}

/**
 * Creates a pet over HTTP against a running CLI (`url` is its API address): the new id once
 * acknowledged (201), undefined when the request was refused or cut off (by a stop or a kill).
 */
export async function createPetOver(
  url: string,
  name: string,
  token: string,
): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    if (res.status !== 201) return undefined;
    const pet: unknown = await res.json();
    return typeof pet === 'object' && pet !== null && 'id' in pet && typeof pet.id === 'number'
      ? pet.id
      : undefined;
  } catch {
    return undefined; // cut off: not acknowledged
  }
}
