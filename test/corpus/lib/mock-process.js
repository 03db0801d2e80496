/**
 * The mock started as a user starts it (`node dist/cli.js --contract FILE`, on a free loopback
 * port); it and any child it starts are measured together and always stopped.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { send } from './http-client.js';

const TAIL_CHARS = 4000;
const MAX_ERROR_LINES = 200;
const STOP_GRACE_MS = 3000;
/** Log levels (pino): 50 is error, 60 fatal. */
const ERROR_LEVEL = 50;

/** Mocks started and not yet stopped (their pids): killed when the runner exits, however it exits. */
const live = new Set();

/** Kills every mock still running, and what it started (synchronously: for process 'exit'). */
export function killAllNow() {
  for (const pid of live) killAll(treePids(pid), 'SIGKILL');
  live.clear();
}

function killAll(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** The environment without the mock's own settings, so only the flags given here count. */
function cleanEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('MOCK_') && !['PORT', 'HOST', 'NODE_OPTIONS'].includes(name),
    ),
  );
}

/**
 * Starts `node <cli> --contract <file> --port 0 --host 127.0.0.1 --log-level info --seed <seed>
 * --resources off`.
 * Resolves with a running mock ({pid, pids(), url, startMs, rssMiB(), errorLines, exited(), stop()}) once it
 * printed its url and answered a first request, or with {refused, exitCode} when it would not.
 */
export async function startMock({ cli, cwd, file, seed, timeoutMs }) {
  const args = [cli, '--contract', file, '--port', '0', '--host', '127.0.0.1'];
  args.push('--log-level', 'info', '--seed', String(seed));
  // The checks below judge the contract's own answers to one valid request each; the state a
  // contract's resources keep (issue 30) is proved apart, so it is off here.
  args.push('--resources', 'off');
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return { refused: 'the process could not be spawned', exitCode: null };
  live.add(pid);
  const state = { stdout: '', stderr: '', errorLines: [], exitCode: undefined, signal: undefined };
  const exited = new Promise((resolveExit) =>
    child.once('exit', (code, signal) => {
      state.exitCode = code;
      state.signal = signal;
      resolveExit();
    }),
  );
  child.stderr.on('data', (chunk) => {
    state.stderr = (state.stderr + String(chunk)).slice(-TAIL_CHARS);
  });
  const ready = new Promise((resolveReady) => {
    let pending = '';
    child.stdout.on('data', (chunk) => {
      state.stdout = (state.stdout + String(chunk)).slice(-TAIL_CHARS);
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const entry = parseLine(line);
        if (entry === undefined) continue;
        if (typeof entry.url === 'string') resolveReady(entry.url);
        if (typeof entry.level === 'number' && entry.level >= ERROR_LEVEL) {
          if (state.errorLines.length < MAX_ERROR_LINES) state.errorLines.push(entry);
        }
      }
    });
  });

  // SIGTERM to the bin (it passes it on to a child it supervises), then SIGKILL to the whole tree.
  const stop = async () => {
    const tree = treePids(pid);
    if (state.exitCode === undefined) {
      killAll([pid], 'SIGTERM');
      const late = await Promise.race([exited.then(() => false), sleep(STOP_GRACE_MS, true)]);
      if (late) killAll(treePids(pid), 'SIGKILL');
      await exited;
    }
    killAll(
      tree.filter((p) => p !== pid && existsSync(join('/proc', String(p)))),
      'SIGKILL',
    );
    live.delete(pid);
  };

  const first = await Promise.race([
    ready.then((url) => ({ url })),
    exited.then(() => ({ exit: true })),
    sleep(timeoutMs, { timeout: true }),
  ]);
  if (first.url === undefined) {
    await stop();
    const why = first.timeout
      ? `no url logged within ${timeoutMs} ms`
      : `exit code ${state.exitCode ?? state.signal}`;
    return {
      refused: `${why}: ${whatItSaid(state.stderr || state.stdout)}`,
      exitCode: state.exitCode,
    };
  }
  const health = { method: 'GET', target: '/__admin/health', headers: {} };
  const answer = await send(new URL(first.url).origin, health, timeoutMs);
  return {
    pid,
    pids: () => treePids(pid),
    url: first.url,
    startMs: Math.round(performance.now() - started),
    firstAnswer: answer.error ?? answer.status,
    rssMiB: () => treeRssMiB(pid),
    errorLines: state.errorLines,
    exited: () =>
      state.exitCode === undefined
        ? undefined
        : `exit code ${state.exitCode ?? state.signal}: ${whatItSaid(state.stderr)}`,
    stop,
  };
}

/** The telling line of a process's last words: its one-line refusal, or a crash's error line. */
function whatItSaid(output) {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const told = lines.find((line) => /^(petstore-mock:|\w*Error\b|Error:)/.test(line));
  return told ?? lines[0] ?? '(nothing on stderr)';
}

function parseLine(line) {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function sleep(ms, value) {
  return new Promise((resolveSleep) => setTimeout(() => resolveSleep(value), ms).unref());
}

/** The pid and every descendant of it alive now (the bin may supervise a child in its own group). */
export function treePids(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  const alive = existsSync(join('/proc', String(root)));
  const pids = alive ? [root] : [];
  for (let i = 0; i < pids.length; i += 1) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

/** Resident memory of a process and its descendants, MiB (VmRSS of each, added). */
export function treeRssMiB(root) {
  let kib = 0;
  for (const pid of treePids(root)) {
    try {
      const status = readFileSync(join('/proc', String(pid), 'status'), 'utf8');
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // The process ended while being read.
    }
  }
  return Math.round((kib / 1024) * 10) / 10;
}
