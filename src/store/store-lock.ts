import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { hiddenSiblingOf } from './sibling-path.js';
import { isRecord } from '../util/is-record.js';
import { parseJson } from '../json/json-codec.js';
import { errorMessage } from '../util/error-message.js';

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
  /** Its PID namespace (Linux), so a pid is only trusted where it means the same process. */
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
  /** Throws once another mock took the lock over (this one stopped refreshing it in time). */
  assertHeld(): void;
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
    const { instance, host, pid, pidns, since } = value;
    if (typeof instance !== 'string' || typeof host !== 'string' || typeof pid !== 'number') {
      return undefined;
    }
    const owner = { instance, host, pid, since: typeof since === 'string' ? since : '' };
    return typeof pidns === 'string' ? { ...owner, pidns } : owner;
  } catch {
    return undefined;
  }
}

function isLive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is another user's.
    return isRecord(error) && error.code === 'EPERM';
  }
}

function describe(owner: LockOwner | undefined): string {
  if (!owner) return 'an unreadable lock';
  const since = owner.since === '' ? '' : ` since ${owner.since}`;
  const instance = owner.instance === '' ? '' : `, instance ${owner.instance}`;
  return `process ${owner.pid} on ${owner.host}${instance}${since}`;
}

/** This process's PID namespace, where Linux tells it. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
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
  const here =
    owner !== undefined &&
    owner.host === hostname() &&
    owner.pid > 0 &&
    (owner.instance === '' || (owner.pidns !== undefined && owner.pidns === pidNamespace()));
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

function isMissing(error: unknown): boolean {
  return isRecord(error) && error.code === 'ENOENT';
}

/**
 * Replaces a lock judged stale (`judged`, its text) with this mock's. One mock at a time does so,
 * holding a claim file created exclusively; it replaces the lock only if it is still the one
 * judged (else another mock took the file over since), atomically by a rename.
 */
async function replaceStaleLock(
  lockPath: string,
  judged: string,
  mine: LockOwner,
  timing: LockTiming,
): Promise<void> {
  const claim = `${lockPath}.takeover`;
  if (!(await createLock(claim, mine))) {
    // A claim left by a mock that died taking the file over goes once stale; then one more try.
    const { mtimeMs } = await stat(claim).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs <= timing.staleMs) {
      throw new Error('another mock is taking it over at this moment');
    }
    await unlink(claim).catch(() => undefined);
    if (!(await createLock(claim, mine))) {
      throw new Error('another mock is taking it over at this moment');
    }
  }
  try {
    const now = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (now !== undefined && now !== judged) {
      throw new Error(`it was just taken over by ${describe(ownerOf(now))}`);
    }
    const temp = `${lockPath}.${mine.instance}`;
    await writeFile(temp, JSON.stringify(mine));
    await rename(temp, lockPath);
  } finally {
    await unlink(claim).catch(() => undefined);
  }
}

/**
 * Takes the store file for this mock: one mock per file, as two would each append to a journal
 * the other one replaces (and lose acknowledged pets). The lock file holds the owner (instance,
 * host, pid, since), which refreshes it every `heartbeatMs`; a lock left unrefreshed for
 * `staleMs`, or by a process of this host that is gone, is taken over. Throws, naming the owner,
 * when it is live.
 */
export async function lockStoreFile(path: string, timing = LOCK_TIMING): Promise<StoreLock> {
  const lockPath = lockPathOf(path);
  const pidns = pidNamespace();
  const mine: LockOwner = {
    instance: randomUUID(),
    host: hostname(),
    pid: process.pid,
    ...(pidns === undefined ? {} : { pidns }),
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
      if (!isMissing(error)) throw error; // an unreadable lock is not a gone owner
      if (attempt < 3) continue; // released meanwhile
    }
    if (!stale) {
      throw new Error(
        `the store file ${path} is in use by ${describe(owner)} (one mock per --db file; a lock not refreshed for ${timing.staleMs / 1000} s is taken over)`,
      );
    }
    try {
      await replaceStaleLock(lockPath, text, mine, timing);
    } catch (error) {
      throw new Error(`the store file ${path} cannot be taken over: ${errorMessage(error)}`);
    }
    // An owner that was only silent may still be running: it stops writing within the fencing
    // window of its last heartbeat, so what it wrote is in the file once this one reads it. A
    // mock that made a lock meanwhile (its owner released it) finds this one's at its next beat.
    if (stale === 'silent') {
      await sleep(fencingWindowMs(timing) + timing.heartbeatMs);
      const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner?.instance !== mine.instance) {
        throw new Error(`the store file ${path} was just taken over by ${describe(owner)}`);
      }
    }
    break;
  }
  return holdLock(lockPath, mine, timing);
}

/** How long after its last confirmed heartbeat an owner still writes: two beats. */
function fencingWindowMs(timing: LockTiming): number {
  return 2 * timing.heartbeatMs;
}

/**
 * Refreshes the lock while held, and fences: writes are allowed only while the lock was seen to be
 * this mock's within the fencing window, so a mock that was paused (or whose heartbeat fails)
 * stops writing on its own, before the stale time lets another one take the file over.
 */
function holdLock(lockPath: string, mine: LockOwner, timing: LockTiming): StoreLock {
  let lostTo: string | undefined;
  let confirmedAt = Date.now();
  const beat = async (): Promise<void> => {
    const startedAt = Date.now();
    let text: string;
    try {
      text = await readFile(lockPath, 'utf8');
    } catch {
      return; // not confirmed; a missing lock may be back (a takeover that put it back)
    }
    const owner = ownerOf(text);
    if (owner?.instance !== mine.instance) {
      lostTo = describe(owner);
      clearInterval(timer);
      return;
    }
    const now = new Date();
    await utimes(lockPath, now, now);
    confirmedAt = startedAt;
  };
  const timer = setInterval(() => {
    beat().catch(() => undefined);
  }, timing.heartbeatMs);
  timer.unref();
  return {
    owner: mine,
    assertHeld() {
      if (lostTo !== undefined) {
        throw new Error(
          `the store file's lock was taken over by ${lostTo}: this mock no longer writes it`,
        );
      }
      const unconfirmedMs = Date.now() - confirmedAt;
      if (unconfirmedMs > fencingWindowMs(timing)) {
        throw new Error(
          `the store file's lock was not confirmed for ${unconfirmedMs} ms: this mock does not write it until it is`,
        );
      }
    },
    async release() {
      clearInterval(timer);
      const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner?.instance === mine.instance) await unlink(lockPath).catch(() => undefined);
    },
  };
}
