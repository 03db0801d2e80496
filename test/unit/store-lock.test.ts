// The --db lock (issue 11): owners told apart by instance and host, not by a bare pid (two
// containers sharing a volume are both PID 1); liveness by a heartbeat; fencing after a takeover.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  LOCK_TIMING,
  lockPathOf,
  lockStoreFile,
  type LockTiming,
  type StoreLock,
} from '../../src/state/store-lock.js';
import { openPetStore } from '../../src/state/open-store.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { contract } from '../helpers/test-app.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

const FAST: LockTiming = { heartbeatMs: 20, staleMs: 1000 };
/** Generous bound for a test that waits the real 3 s (not a timing assertion). */
const SLOW = 30_000;
const checkPet = contract.checkSchema('Pet');

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

/** The lock's confirmation, always as a promise. */
async function confirmed(lock: StoreLock): Promise<void> {
  await lock.confirm();
}

/** Whether the lock now refuses a write. */
async function refused(lock: StoreLock): Promise<boolean> {
  return confirmed(lock).then(
    () => false,
    () => true,
  );
}

/** Waits (bounded) until `check` holds. */
async function eventuallyAsync(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i += 1) await sleep(10);
  expect(await check()).toBe(true);
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

  it(
    'after taking over a lock only not refreshed, waits 3 s before it reads the store file',
    async () => {
      // The store file as its first owner left it, then with the pet that owner still wrote.
      const first = await openPetStore({ initial: storeDataFrom([]), db: file, checkPet });
      await first.create({ name: 'before', categoryId: 1 });
      await first.close();
      const before = readFileSync(file, 'utf8');
      const second = await openPetStore({ initial: storeDataFrom([]), db: file, checkPet });
      await second.create({ name: 'late', categoryId: 1 });
      await second.close();
      const late = readFileSync(file, 'utf8');
      writeFileSync(file, before);
      foreignLock(60_000); // its owner, silent for a minute, may only be slow

      const started = performance.now();
      let openedAt: number | undefined;
      const opening = openPetStore({ initial: storeDataFrom([]), db: file, checkPet }).then(
        (store) => {
          openedAt = performance.now();
          return store;
        },
      );
      // The lock names the taker: the slow owner would see it now, and ends its last write. Seen
      // before the wait ends, whatever the load: the poll's 10 ms timer is due before the taker's.
      await eventually(() => !readFileSync(lockPathOf(file), 'utf8').includes('other-instance'));
      const seenAt = performance.now();
      expect(openedAt).toBeUndefined();
      writeFileSync(`${file}.late`, late);
      renameSync(`${file}.late`, file); // that last write, atomic as the store's own
      const store = await opening;
      try {
        expect(store.list({ limit: 10 }).map((pet) => pet.name)).toEqual(['before', 'late']);
        if (openedAt === undefined) throw new Error('not opened');
        // No sooner than 3 s (timers count whole, possibly coarse, ms of the same clock); and
        // not a wait as long as the 5 s stale time: 1.5 s of slack for a loaded machine.
        expect(LOCK_TIMING.heartbeatMs).toBe(1000);
        expect(openedAt - started).toBeGreaterThanOrEqual(3000 - 2);
        expect(openedAt - seenAt).toBeLessThan(3000 + 1500);
      } finally {
        await store.close();
      }
    },
    SLOW,
  );

  it('refreshes its lock while held, so it never looks stale to another mock', async () => {
    const lock = await lockStoreFile(file, FAST);
    const old = new Date(Date.now() - 5000);
    utimesSync(lockPathOf(file), old, old);

    await eventually(() => Date.now() - statSync(lockPathOf(file)).mtimeMs < 1000);
    await lock.release();
  });

  it('stops writing (fencing) once another mock took the lock over', async () => {
    const first = await lockStoreFile(file, { heartbeatMs: 20, staleMs: 60_000 });
    await expect(confirmed(first)).resolves.toBeUndefined();
    foreignLock(0); // another mock took the file over meanwhile
    await eventuallyAsync(() => refused(first));
    await expect(confirmed(first)).rejects.toThrow('taken over by process 1 on other-host');
    await first.release();
    expect(readFileSync(lockPathOf(file), 'utf8')).toContain('other-instance'); // not its to delete
  });

  it('lets one mock only take over a stale lock, however many try at once', async () => {
    for (let round = 0; round < 10; round += 1) {
      foreignLock(5000);
      const tries = await Promise.allSettled([1, 2, 3].map(() => lockStoreFile(file, FAST)));
      const held = tries.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []));
      expect(held).toHaveLength(1);
      const owner: unknown = JSON.parse(readFileSync(lockPathOf(file), 'utf8'));
      expect(owner).toMatchObject({ instance: held[0]?.owner.instance });
      await Promise.all(held.map((lock) => lock.release()));
    }
  });

  it('refuses a second store in the same process: its own lock is as live as another', async () => {
    const first = await lockStoreFile(file, FAST);
    await expect(lockStoreFile(file, FAST)).rejects.toThrow(`in use by process ${process.pid}`);
    await first.release();
  });

  it('does not write while its lock cannot be read, and writes again once it can', async () => {
    const lock = await lockStoreFile(file, FAST);
    const text = readFileSync(lockPathOf(file), 'utf8');
    rmSync(lockPathOf(file));
    mkdirSync(lockPathOf(file)); // unreadable as a lock: no beat confirms it
    await eventuallyAsync(() => refused(lock));
    await expect(confirmed(lock)).rejects.toThrow('cannot be read');
    rmSync(lockPathOf(file), { recursive: true });
    writeFileSync(lockPathOf(file), text);
    await expect(confirmed(lock)).resolves.toBeUndefined();
    await lock.release();
  });

  it('still writes after a long synchronous stretch: it reads its lock again first', async () => {
    const lock = await lockStoreFile(file, FAST);
    const until = Date.now() + 2 * FAST.staleMs; // no beat runs meanwhile
    while (Date.now() < until); // the stretch itself
    await expect(confirmed(lock)).resolves.toBeUndefined();
    await lock.release();
  });

  it('writes nothing once released', async () => {
    const lock = await lockStoreFile(file, FAST);
    await lock.release();
    await expect(confirmed(lock)).rejects.toThrow('no longer writes');
  });

  it('does not trust a pid of this host recorded in another PID namespace', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const owner = {
      instance: 'in-a-container',
      host: hostname(), // containers on the host's network share its name
      pid: Number(gone.stdout.toString()), // gone here, maybe alive in its own namespace
      // This machine's boot: only the namespace differs (a lock records the two together).
      boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidns: 'pid:[1]',
      since: '2030-01-01',
    };
    writeFileSync(lockPathOf(file), JSON.stringify(owner));
    await expect(lockStoreFile(file, FAST)).rejects.toThrow('instance in-a-container');
  });

  it('takes over the lock of a process of this host that ended but is not reaped yet', async () => {
    // `sleep 1` ends once its parent has become `sleep 10`, which never reads its exit status.
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 10'], { stdio: 'pipe' });
    try {
      const pid = await new Promise<number>((resolve) => {
        parent.stdout.once('data', (chunk: Buffer) => {
          resolve(Number(String(chunk).trim()));
        });
      });
      const stat = `/proc/${String(pid)}/stat`;
      await eventually(() => existsSync(stat) && readFileSync(stat, 'utf8').includes(') Z '));
      writeFileSync(lockPathOf(file), String(pid));
      const lock = await lockStoreFile(file, FAST);
      await lock.release();
    } finally {
      parent.kill();
    }
  });

  it("keeps an older version's bare-pid lock while its process lives, however old", async () => {
    writeFileSync(lockPathOf(file), String(process.pid));
    const then = new Date(Date.now() - 60_000);
    utimesSync(lockPathOf(file), then, then);
    await expect(lockStoreFile(file, FAST)).rejects.toThrow(`in use by process ${process.pid}`);
  });
});
