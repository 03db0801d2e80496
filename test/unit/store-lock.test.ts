// The --db lock (issue 11): owners told apart by instance and host, not by a bare pid (two
// containers sharing a volume are both PID 1); liveness by a heartbeat; fencing after a takeover.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoreData } from '../../src/store/store-data.js';
import {
  fenceWrites,
  lockPathOf,
  lockStoreFile,
  type LockTiming,
} from '../../src/store/store-lock.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

const FAST: LockTiming = { heartbeatMs: 20, staleMs: 1000 };

let dir: string;
let file: string;

beforeEach(() => {
  dir = makeTmpDir();
  file = join(dir, 'pets.json');
});

afterEach(() => {
  removeTmpDir(dir);
});

/** A lock as another mock in another container wrote it: PID 1, another host. */
function foreignLock(ageMs: number): void {
  const owner = { instance: 'other-instance', host: 'other-host', pid: 1, since: '2030-01-01' };
  writeFileSync(lockPathOf(file), JSON.stringify(owner));
  const then = new Date(Date.now() - ageMs);
  utimesSync(lockPathOf(file), then, then);
}

/** Waits (bounded) until `check` holds. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await sleep(10);
  expect(check()).toBe(true);
}

describe('lockStoreFile', () => {
  it('refuses a live lock of another host even when both are PID 1, naming its owner', async () => {
    foreignLock(0);
    await expect(lockStoreFile(file, FAST)).rejects.toThrow(
      'in use by process 1 on other-host, instance other-instance since 2030-01-01',
    );
  });

  it('takes over a lock its owner stopped refreshing, and writes itself in', async () => {
    foreignLock(5000);
    const lock = await lockStoreFile(file, FAST);
    const written: unknown = JSON.parse(readFileSync(lockPathOf(file), 'utf8'));
    expect(written).toMatchObject({ instance: lock.owner.instance, host: hostname() });
    await lock.release();
  });

  it('refreshes its lock while held, so it never looks stale to another mock', async () => {
    const lock = await lockStoreFile(file, FAST);
    const old = new Date(Date.now() - 5000);
    utimesSync(lockPathOf(file), old, old);

    await eventually(() => Date.now() - statSync(lockPathOf(file)).mtimeMs < 1000);
    await lock.release();
  });

  it('stops writing (fencing) once another mock took the lock over', async () => {
    const first = await lockStoreFile(file, { heartbeatMs: 20, staleMs: 60_000 });
    expect(() => {
      first.assertHeld();
    }).not.toThrow();
    foreignLock(0); // another mock took the file over meanwhile
    await eventually(() => {
      try {
        first.assertHeld();
        return false;
      } catch {
        return true;
      }
    });
    expect(() => {
      first.assertHeld();
    }).toThrow('taken over by process 1 on other-host');
    await first.release();
    expect(readFileSync(lockPathOf(file), 'utf8')).toContain('other-instance'); // not its to delete
  });

  it('reads its lock again before a write long after its last refresh (a frozen process)', async () => {
    // The heartbeat never runs here, as in a process stopped (SIGSTOP) past the stale time.
    const frozen = { heartbeatMs: 60_000, staleMs: 100 };
    const mine = await lockStoreFile(file, frozen);
    expect(mine.isLate()).toBe(false);
    await sleep(60);
    expect(mine.isLate()).toBe(true);
    const old = new Date(Date.now() - 5000);
    utimesSync(lockPathOf(file), old, old);
    await mine.confirm(); // still its own: refreshed
    expect(mine.isLate()).toBe(false);
    expect(Date.now() - statSync(lockPathOf(file)).mtimeMs).toBeLessThan(1000);
    expect(() => {
      mine.assertHeld();
    }).not.toThrow();
    await mine.release();

    const first = await lockStoreFile(file, frozen);
    await sleep(60);
    foreignLock(0); // taken over while it was frozen
    await first.confirm();
    expect(() => {
      first.assertHeld();
    }).toThrow('taken over by process 1 on other-host');
    await first.release();
  });
});

describe('fenceWrites', () => {
  /** A lock taken over by another mock while this process was frozen, unnoticed so far. */
  function lockOf(state: { late: boolean; takenOver: boolean }) {
    let lost = false;
    return {
      isLate: () => state.late,
      confirm: () => {
        lost = state.takenOver;
        state.late = false;
        return Promise.resolve();
      },
      assertHeld: () => {
        if (lost) throw new Error('taken over');
      },
    };
  }
  const DATA: StoreData = { nextId: 2, pets: [{ id: 1, name: 'One', categoryId: 1 }] };

  it('writes at once, in the same tick, while the lock is fresh', async () => {
    const written: StoreData[] = [];
    const file = {
      read: () => Promise.resolve(null),
      write: (data: StoreData) => {
        written.push(data);
        return Promise.resolve();
      },
    };
    const write = fenceWrites(file, lockOf({ late: false, takenOver: false })).write(DATA);
    expect(written).toEqual([DATA]);
    await write;
  });

  it('reads a late lock again first, and writes nothing once it was taken over', async () => {
    const written: StoreData[] = [];
    const file = {
      read: () => Promise.resolve(null),
      write: (data: StoreData) => {
        written.push(data);
        return Promise.resolve();
      },
    };
    await expect(
      fenceWrites(file, lockOf({ late: true, takenOver: true })).write(DATA),
    ).rejects.toThrow('taken over');
    expect(written).toEqual([]);
    await fenceWrites(file, lockOf({ late: true, takenOver: false })).write(DATA);
    expect(written).toEqual([DATA]);
  });

  it('fails a write during which the process was frozen and the lock taken over', async () => {
    const state = { late: false, takenOver: false };
    const frozenDuringWrite = {
      read: () => Promise.resolve(null),
      write: () => {
        Object.assign(state, { late: true, takenOver: true });
        return Promise.resolve();
      },
    };
    await expect(fenceWrites(frozenDuringWrite, lockOf(state)).write(DATA)).rejects.toThrow(
      'taken over',
    );
    const slowButHeld = { late: false, takenOver: false };
    const slow = {
      read: () => Promise.resolve(null),
      write: () => {
        slowButHeld.late = true;
        return Promise.resolve();
      },
    };
    await expect(fenceWrites(slow, lockOf(slowButHeld)).write(DATA)).resolves.toBeUndefined();
  });
});
