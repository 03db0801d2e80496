/** Server processes: spawned pinned to the server core, tracked, and always killed at the end. */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from './paths.js';

export const SERVER_CORE = 0;
export const RUNNER_CORE = 1;

/**
 * Pinning needs taskset and a second core for the load generator. (cpus(), not
 * availableParallelism(): the latter counts only the cores this process may use, 1 once pinned.)
 */
export const pinning = cpus().length >= 2 && spawnSync('taskset', ['-c', '1', 'true']).status === 0;

const OUTPUT_TAIL = 4000;
const STOP_GRACE_MS = 3000;

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();

/**
 * The environment without the mock's own variables and NODE_OPTIONS, so that only the flags given
 * here count (and the bin applies its own V8 flags, as when users start it).
 */
function cleanEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('MOCK_') || ['PORT', 'HOST', 'NODE_OPTIONS'].includes(name)) {
      env[name] = undefined;
    }
  }
  return env;
}

/** The last `OUTPUT_TAIL` characters of a file; '' when it cannot be read. */
function fileTail(path) {
  try {
    return readFileSync(path, 'utf8').slice(-OUTPUT_TAIL);
  } catch {
    return '';
  }
}

/**
 * Spawns `<node> <args>` on the server core (node: this process's own binary unless given). taskset
 * execs node, so the pid is node's own (its /proc files are the server's). The output's tail is
 * kept for error messages. With `logFile`, stdout and stderr go to that file instead of a pipe:
 * a server that logs every request then never waits on the runner, busy with autocannon, to drain
 * a pipe; `output` reads the file's tail. `pin: false` lets it run on any core (no timing taken);
 * `core` pins it to another (a helper that must not take the server's core, as redis-server).
 */
export function spawnNodeServer(
  args,
  { node = process.execPath, logFile, pin = pinning, core = SERVER_CORE } = {},
) {
  const command = pin ? 'taskset' : node;
  const argv = pin ? ['-c', String(core), node, ...args] : args;
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(command, argv, {
    cwd: projectRoot,
    env: cleanEnv(),
    stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
  });
  if (logFd !== undefined) closeSync(logFd);
  let output = '';
  const state = {
    child,
    exited: false,
    get output() {
      return logFile === undefined ? output : fileTail(logFile);
    },
  };
  const keep = (chunk) => {
    output = (output + String(chunk)).slice(-OUTPUT_TAIL);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  live.add(child);
  child.once('exit', () => {
    state.exited = true;
    live.delete(child);
  });
  return state;
}

/** SIGTERM, then SIGKILL if the process is still there after a grace period. */
export async function stopServer(state) {
  if (state.exited) return;
  const exited = new Promise((resolve) => state.child.once('exit', resolve));
  state.child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(STOP_GRACE_MS, true)]);
  if (timedOut) {
    state.child.kill('SIGKILL');
    await exited;
  }
}

export async function stopAll() {
  await Promise.all(
    [...live].map((child) => stopServer({ child, exited: child.exitCode !== null })),
  );
}

function killAllNow() {
  for (const child of live) child.kill('SIGKILL');
}

/** No server outlives the runner: on normal exit, on a crash, and on Ctrl-C or SIGTERM. */
export function killChildrenOnExit() {
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      console.error(`\nbench: ${signal}, stopping the servers`);
      killAllNow();
      process.exit(130);
    });
  }
}

/** The cores a process may run on, as /proc says (e.g. "0"); null where /proc is not available. */
export function coresOf(pid) {
  return procStatusField(pid, 'Cpus_allowed_list');
}

function procStatusField(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return new RegExp(`^${field}:\\s+(.+)$`, 'm').exec(status)?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** The fields of /proc/<pid>/stat after the command name (state first); null when unreadable. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * A process and its descendants, from /proc: a server's whole tree (on Node 20 the bin runs the
 * mock as a supervised child; taskset and unshare exec or fork theirs).
 */
function processTree(pid) {
  const childrenOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(entry)?.[1]);
    if (!childrenOf.has(parent)) childrenOf.set(parent, []);
    childrenOf.get(parent).push(Number(entry));
  }
  const tree = [];
  for (let queue = [pid]; queue.length > 0;) {
    const next = queue.shift();
    tree.push(next);
    queue.push(...(childrenOf.get(next) ?? []));
  }
  return tree;
}

/**
 * Resident set size of a process and its descendants in MiB, from /proc (null where /proc is not
 * available or the process is gone).
 */
export function rssMiB(pid) {
  let kib = null;
  for (const member of processTree(pid)) {
    const match = /^(\d+)\s+kB$/.exec(procStatusField(member, 'VmRSS') ?? '');
    if (match) kib = (kib ?? 0) + Number(match[1]);
  }
  return kib === null ? null : kib / 1024;
}

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times (getconf; 100 on Linux). */
const CLOCK_TICKS = (() => {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/**
 * CPU time a process and its descendants have used so far (user + system) in ms, from
 * /proc/<pid>/stat, to the clock tick (10 ms); null where /proc is not available. Unlike wall
 * time, it barely depends on what else the machine is doing.
 */
export function cpuMs(pid) {
  let ticks = null;
  for (const member of processTree(pid)) {
    // State is the 3rd field of the line, utime the 14th, stime the 15th.
    const fields = statFields(member);
    const used = fields === null ? NaN : Number(fields[11]) + Number(fields[12]);
    if (Number.isFinite(used)) ticks = (ticks ?? 0) + used;
  }
  return ticks === null ? null : (ticks * 1000) / CLOCK_TICKS;
}
