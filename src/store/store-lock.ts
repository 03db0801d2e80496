import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { hiddenSiblingOf } from './sibling-path.js';
import { isRecord } from '../util/is-record.js';
import { parseJson } from '../json/json-codec.js';
import type { StoreData } from './store-data.js';

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
  /**
   * Whether the lock was last confirmed long ago (half the stale time): the process was frozen or
   * stalled, another mock may have taken it over meanwhile, and the heartbeat not yet noticed.
   */
  isLate(): boolean;
  /** Reads the lock again (and refreshes it if still this mock's): for a late lock, before a write. */
  confirm(): Promise<void>;
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
    const { instance, host, pid, since } = value;
    if (typeof instance !== 'string' || typeof host !== 'string' || typeof pid !== 'number') {
      return undefined;
    }
    return { instance, host, pid, since: typeof since === 'string' ? since : '' };
  } catch {
    return undefined;
  }
}

/**
 * The instances this process took: a lock of one of them is this process's own (a store opened
 * again without being closed, as after a simulated crash), never another mock's, even where
 * another mock has the same host name and PID (two containers, each PID 1, on the host network).
 */
const ownInstances = new Set<string>();

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

/**
 * Whether a lock's owner is gone: its lock was not refreshed for `staleMs` (whatever host or PID
 * namespace it ran in), or it ran on this host and its process no longer exists. A live PID here
 * is not trusted alone: in another PID namespace (a container sharing the volume) it may be ours.
 */
async function isStale(lockPath: string, owner: LockOwner | undefined, timing: LockTiming) {
  if (owner !== undefined && ownInstances.has(owner.instance)) return true;
  const { mtimeMs } = await stat(lockPath);
  if (Date.now() - mtimeMs > timing.staleMs) return true;
  return owner !== undefined && owner.host === hostname() && !isLive(owner.pid) && owner.pid > 0;
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
 * Takes the store file for this mock: one mock per file, as two would each append to a journal
 * the other one replaces (and lose acknowledged pets). The lock file holds the owner (instance,
 * host, pid, since), which refreshes it every `heartbeatMs`; a lock left unrefreshed for
 * `staleMs`, or by a process of this host that is gone, is taken over: renamed away first, so of
 * two mocks taking it over at once only one wins. Throws, naming the owner, when it is live.
 */
export async function lockStoreFile(path: string, timing = LOCK_TIMING): Promise<StoreLock> {
  const lockPath = lockPathOf(path);
  const mine: LockOwner = {
    instance: randomUUID(),
    host: hostname(),
    pid: process.pid,
    since: new Date().toISOString(),
  };
  if (!(await createLock(lockPath, mine))) {
    const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
    if (!(await isStale(lockPath, owner, timing).catch(() => true))) {
      throw new Error(
        `the store file ${path} is in use by ${describe(owner)} (one mock per --db file; a lock not refreshed for ${timing.staleMs / 1000} s is taken over)`,
      );
    }
    const away = `${lockPath}.${mine.instance}`;
    try {
      await rename(lockPath, away); // only one contender's rename finds it
      await unlink(away).catch(() => undefined);
    } catch (error) {
      if (!isRecord(error) || error.code !== 'ENOENT') throw error;
    }
    if (!(await createLock(lockPath, mine))) {
      const winner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
      throw new Error(`the store file ${path} was just taken over by ${describe(winner)}`);
    }
  }
  ownInstances.add(mine.instance);
  return holdLock(lockPath, mine, timing);
}

/** Refreshes the lock while held; notices when another mock took it over (fencing). */
function holdLock(lockPath: string, mine: LockOwner, timing: LockTiming): StoreLock {
  let lostTo: string | undefined;
  let confirmedAt = Date.now();
  const beat = async (): Promise<void> => {
    const readAt = Date.now(); // before the read: a stall during the beat counts against it
    const owner = ownerOf(await readFile(lockPath, 'utf8').catch(() => ''));
    if (owner?.instance !== mine.instance) {
      lostTo = describe(owner);
      clearInterval(timer);
      return;
    }
    const now = new Date();
    await utimes(lockPath, now, now);
    confirmedAt = readAt;
  };
  const isLate = () => Date.now() - confirmedAt >= timing.staleMs / 2;
  const timer = setInterval(() => {
    beat().catch(() => undefined);
  }, timing.heartbeatMs);
  timer.unref();
  return {
    owner: mine,
    isLate,
    async confirm() {
      // Bounded: a beat that was itself late is done again, at most twice.
      for (let i = 0; i < 3 && lostTo === undefined && isLate(); i += 1) await beat();
    },
    assertHeld() {
      if (lostTo !== undefined) {
        throw new Error(
          `the store file's lock was taken over by ${lostTo}: this mock no longer writes it`,
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

/**
 * The store file's writes, fenced by its lock: none once another mock took it over. A late lock
 * (the process was frozen) is read again before a write, and after a write that took long: another
 * mock may have read the store before the write landed and handed out the same ids, so it fails.
 */
export function fenceWrites(
  file: Adapter<StoreData>,
  lock: Pick<StoreLock, 'assertHeld' | 'isLate' | 'confirm'>,
): Adapter<StoreData> {
  return {
    read: () => file.read(),
    write: async (data) => {
      // Not late: the write starts in this tick, as it takes the pets stored until then (a write
      // that finds none is a flush).
      if (lock.isLate()) await lock.confirm();
      lock.assertHeld();
      await file.write(data);
      if (lock.isLate()) {
        await lock.confirm();
        lock.assertHeld();
      }
    },
  };
}
