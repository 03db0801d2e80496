import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { hiddenSiblingOf } from '../util/sibling-path.js';
import { isRecord } from '../util/is-record.js';
import { parseJson } from '../util/json-codec.js';
import { errorMessage } from '../util/error-message.js';
import { isMissingFile } from '../util/is-missing-file.js';

/** Where the lock of the store file at `path` is: next to it, hidden. */
export function lockPathOf(path: string): string {
  return hiddenSiblingOf(path, 'lock');
}

/** Who holds a lock: a mock told apart from any other, across machines and PID namespaces. */
export interface LockOwner {
  /** Random, new at each start: two mocks that are both PID 1 still differ. */
  readonly instance: string;
  readonly host: string;
  readonly pid: number;
  /** Its boot and PID namespace (Linux): a pid is only trusted where it means the same process. */
  readonly boot?: string;
  readonly pidns?: string;
  /** When it took the lock (ISO). */
  readonly since: string;
}

/** How often the owner refreshes its lock, and how old a lock is when its owner counts as gone. */
export interface LockTiming {
  readonly heartbeatMs: number;
  readonly staleMs: number;
}

export const LOCK_TIMING: LockTiming = Object.freeze({ heartbeatMs: 1000, staleMs: 5000 });

/** A held lock: its release, and a check before each write that it is still this mock's. */
export interface StoreLock {
  readonly owner: LockOwner;
  /**
   * Before a write: throws (or rejects) once another mock took the lock over, or it was released.
   * Returns undefined when the lock was confirmed recently, so the write can start at once;
   * otherwise a promise that settles once the lock was read again.
   */
  confirm(): Promise<void> | undefined;
  release(): Promise<void>;
}

/** A lock's owner as written; a bare pid is the lock of an older version, on this host. */
function ownerOf(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    return { instance: '', host: hostname(), pid: Number(trimmed), since: '' };
  }
  try {
    const value: unknown = parseJson(trimmed);
    if (!isRecord(value)) return undefined;
    const { instance, host, pid, boot, pidns, since } = value;
    if (typeof instance !== 'string' || typeof host !== 'string' || typeof pid !== 'number') {
      return undefined;
    }
    const owner = { instance, host, pid, since: typeof since === 'string' ? since : '' };
    return typeof boot === 'string' && typeof pidns === 'string'
      ? { ...owner, boot, pidns }
      : owner;
  } catch {
    return undefined;
  }
}

function isLive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but is another user's.
    return isRecord(error) && error.code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * Whether a process has ended and only waits for its exit status to be read (Linux): it holds
 * nothing. An orphan stays so until the machine's init reaps it, which may take seconds.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may hold spaces.
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

function describe(owner: LockOwner | undefined): string {
  if (!owner) return 'an unreadable lock';
  const since = owner.since === '' ? '' : ` since ${owner.since}`;
  const instance = owner.instance === '' ? '' : `, instance ${owner.instance}`;
  return `process ${owner.pid} on ${owner.host}${instance}${since}`;
}

/**
 * Where this process's pid means this process: its machine's boot (the first PID namespace has
 * the same number on every Linux machine) and PID namespace, where Linux tells them.
 */
function pidScope(): { boot: string; pidns: string } | undefined {
  try {
    return {
      boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidns: readlinkSync('/proc/self/ns/pid'),
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock's owner is gone, and how we know: `gone` when its process no longer exists (a
 * pid is trusted only in the owner's own host and PID namespace: in a container sharing the
 * volume, even on the host's network, the same pid may be another process) or it was this
 * process's; `silent` when it was not refreshed for `staleMs`, whatever host or namespace it ran
 * in. An older version's bare-pid lock is never refreshed: only its process decides.
 */
async function staleness(
  lockPath: string,
  owner: LockOwner | undefined,
  timing: LockTiming,
): Promise<'gone' | 'silent' | undefined> {
  const scope = pidScope();
  const here =
    owner !== undefined &&
    owner.host === hostname() &&
    owner.pid > 0 &&
    (owner.instance === '' || (owner.boot === scope?.boot && owner.pidns === scope?.pidns));
  if (here && !isLive(owner.pid)) return 'gone';
  if (owner?.instance === '') return undefined;
  const { mtimeMs } = await stat(lockPath);
  return Date.now() - mtimeMs > timing.staleMs ? 'silent' : undefined;
}

async function createLock(lockPath: string, owner: LockOwner): Promise<boolean> {
  try {
    await writeFile(lockPath, JSON.stringify(owner), { flag: 'wx' });
    return true;
  } catch (error) {
    if (isRecord(error) && error.code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Replaces a lock judged stale (`judged`, its text) with this mock's. One mock at a time does so,
 * holding a claim file created exclusively; it replaces the lock only if it is still the one
 * judged (else another mock took the file over since), atomically by a rename. Resolves true when
 * it removed a claim left by a mock that died taking the file over: two mocks may both have done
 * so, and the caller must check which of them holds the lock.
 */
async function replaceStaleLock(
  lockPath: string,
  judged: string,
  mine: LockOwner,
  timing: LockTiming,
): Promise<boolean> {
  const claim = `${lockPath}.takeover`;
  let removedClaim = false;
  if (!(await createLock(claim, mine))) {
    const { mtimeMs } = await stat(claim).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs <= timing.staleMs) {
      throw new Error('another mock is taking it over at this moment');
    }
    await unlink(claim).catch(() => undefined);
    removedClaim = true;
    if (!(await createLock(claim, mine))) {
      throw new Error('another mock is taking it over at this moment');
    }
  }
  const temp = `${lockPath}.${mine.instance}`;
  try {
    const now = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (now !== undefined && now !== judged) {
      throw new Error(`it was just taken over by ${describe(ownerOf(now))}`);
    }
    await writeFile(temp, JSON.stringify(mine));
    await rename(temp, lockPath);
    return removedClaim;
  } finally {
    await unlink(temp).catch(() => undefined); // gone once renamed; left only by a failure
    await unlink(claim).catch(() => undefined);
  }
}

/**
 * Takes over the lock of `path` judged stale (`text`, the lock as read). An owner that was only
 * silent may still be running: within a beat or two it sees this lock and stops writing, so what
 * it wrote is in the file once this one reads it. A mock that took a dead one's claim over at the
 * same moment finds out here too.
 */
async function takeOver(
  path: string,
  text: string,
  mine: LockOwner,
  stale: 'gone' | 'silent',
  timing: LockTiming,
): Promise<void> {
  const lockPath = lockPathOf(path);
  let removedClaim: boolean;
  try {
    removedClaim = await replaceStaleLock(lockPath, text, mine, timing);
  } catch (error) {
    throw new Error(`the store file ${path} cannot be taken over: ${errorMessage(error)}`);
  }
  if (stale === 'gone' && !removedClaim) return;
  await sleep(stale === 'silent' ? TAKEOVER_WAIT_BEATS * timing.heartbeatMs : timing.heartbeatMs);
  const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
  if (owner?.instance !== mine.instance) {
    throw new Error(`the store file ${path} was just taken over by ${describe(owner)}`);
  }
}

/**
 * Takes the store file for this mock: one mock per file, as two would each append to an append log
 * the other one replaces (and lose acknowledged pets). The lock file holds the owner (instance,
 * host, pid, since), which refreshes it every `heartbeatMs`; a lock left unrefreshed for
 * `staleMs`, or by a process of this host that is gone, is taken over. Throws, naming the owner,
 * when it is live.
 */
export async function lockStoreFile(path: string, timing = LOCK_TIMING): Promise<StoreLock> {
  const lockPath = lockPathOf(path);
  const mine: LockOwner = {
    instance: randomUUID(),
    host: hostname(),
    pid: process.pid,
    ...pidScope(),
    since: new Date().toISOString(),
  };
  // A lock released between the tries is tried again: a few times, then it counts as in use.
  for (let attempt = 1; !(await createLock(lockPath, mine)); attempt += 1) {
    const text = await readFile(lockPath, 'utf8').catch(() => '');
    const owner = ownerOf(text);
    let stale: 'gone' | 'silent' | undefined;
    try {
      stale = await staleness(lockPath, owner, timing);
    } catch (error) {
      if (!isMissingFile(error)) throw error; // an unreadable lock is not a gone owner
      if (attempt < 3) continue; // released meanwhile
    }
    if (!stale) {
      const how =
        owner?.instance === ''
          ? "an older version's lock: stop that mock, or delete the lock if it is gone"
          : `a lock not refreshed for ${timing.staleMs / 1000} s is taken over`;
      throw new Error(
        `the store file ${path} is in use by ${describe(owner)} (one mock per --db file; ${how})`,
      );
    }
    await takeOver(path, text, mine, stale, timing);
    break;
  }
  return holdLock(lockPath, mine, timing);
}

/** How long a taker of a silent lock waits before it reads the file, in heartbeats. */
const TAKEOVER_WAIT_BEATS = 3;

/**
 * How long a confirmation of the lock lets its owner write without reading the lock again: less
 * than the stale time by two beats, so that no other mock can have judged the lock stale yet.
 */
function confirmedForMs(timing: LockTiming): number {
  return Math.max(timing.heartbeatMs, timing.staleMs - 2 * timing.heartbeatMs);
}

/**
 * Refreshes the lock while held, a beat at a time, and fences: before each write the lock must
 * have been seen to be this mock's recently (else it is read again at once), so a mock that was
 * paused past the stale time, or whose heartbeat failed, finds out before it writes.
 */
function holdLock(lockPath: string, mine: LockOwner, timing: LockTiming): StoreLock {
  let lostTo: string | undefined;
  /** When the lock was last seen to be this mock's (performance.now: clock steps don't count). */
  let confirmedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;

  const beat = async (): Promise<void> => {
    const startedAt = performance.now();
    let text: string;
    try {
      text = await readFile(lockPath, 'utf8');
    } catch {
      return; // not confirmed; a missing lock may be back (a takeover that put it back)
    }
    const owner = ownerOf(text);
    if (owner?.instance !== mine.instance) {
      lostTo ??= describe(owner);
      return;
    }
    const now = new Date();
    await utimes(lockPath, now, now);
    confirmedAt = Math.max(confirmedAt, startedAt);
  };
  const next = (): void => {
    timer = setTimeout(() => {
      void beat()
        .catch(() => undefined)
        .finally(() => {
          if (lostTo === undefined) next();
        });
    }, timing.heartbeatMs);
    timer.unref();
  };
  next();

  const refuse = (): never => {
    throw new Error(
      `the store file's lock was taken over by ${lostTo ?? 'another mock'}: this mock no longer writes it`,
    );
  };
  return {
    owner: mine,
    confirm() {
      if (lostTo !== undefined) refuse();
      if (performance.now() - confirmedAt <= confirmedForMs(timing)) return undefined;
      return beat()
        .catch(() => undefined)
        .then(() => {
          if (lostTo !== undefined) refuse();
          if (performance.now() - confirmedAt > confirmedForMs(timing)) {
            throw new Error("the store file's lock cannot be read: this mock does not write it");
          }
        });
    },
    async release() {
      clearTimeout(timer);
      lostTo ??= 'its release'; // no write after this
      const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner?.instance === mine.instance) await unlink(lockPath).catch(() => undefined);
    },
  };
}
