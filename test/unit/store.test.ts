import { hostname } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../../src/util/is-record.js';
import type { Pet } from '../../src/state/pet.js';
import { appendLogPathOf } from '../../src/state/append-log-format.js';
import { openPetStore } from '../../src/state/open-store.js';
import type { PetStore } from '../../src/state/pet-store.js';
import { readStoreFile } from '../../src/state/read-store-file.js';
import { storeDataFrom, type StoreData } from '../../src/state/store-data.js';
import { lockPathOf } from '../../src/state/store-lock.js';
import { contract } from '../helpers/test-app.js';
import { makeTmpDir, readJsonFile, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

const checkPet = contract.checkSchema('Pet');

/** Fresh initial pets for each test: ids 3 and 10, given out of order. */
function initialPets(): Pet[] {
  return [
    { id: 10, name: 'Rex', categoryId: 2, status: 'sold' },
    { id: 3, name: 'Bella', categoryId: 1, status: 'available' },
  ];
}

const SORTED_INITIAL: Pet[] = [
  { id: 3, name: 'Bella', categoryId: 1, status: 'available' },
  { id: 10, name: 'Rex', categoryId: 2, status: 'sold' },
];

function openInMemory(pets: Pet[] = initialPets()): Promise<PetStore> {
  return openPetStore({ initial: storeDataFrom(pets), checkPet });
}

function openOnFile(db: string, pets: Pet[] = initialPets()): Promise<PetStore> {
  return openPetStore({ initial: storeDataFrom(pets), db, checkPet });
}

/** Opens the file again as a new process would after the one holding it died (its lock gone). */
function reopenAfterCrash(db: string, pets: Pet[] = initialPets()): Promise<PetStore> {
  rmSync(lockPathOf(db), { force: true });
  return openOnFile(db, pets);
}

describe('PetStore in memory', () => {
  it('lists the initial pets in ascending id order', async () => {
    const store = await openInMemory();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(store.size).toBe(2);
  });

  it('lists at most limit pets', async () => {
    const store = await openInMemory();
    expect(store.list({ limit: 1 })).toEqual([SORTED_INITIAL[0]]);
  });

  it('lists only the pets with the given status', async () => {
    const store = await openInMemory();
    expect(store.list({ limit: 100, status: 'sold' })).toEqual([SORTED_INITIAL[1]]);
    expect(store.list({ limit: 100, status: 'pending' })).toEqual([]);
  });

  it('gets a pet by id, and nothing for an unknown id', async () => {
    const store = await openInMemory();
    expect(store.get(10)).toEqual(SORTED_INITIAL[1]);
    expect(store.get(4)).toBeUndefined();
    expect(store.get(11)).toBeUndefined();
  });

  it('assigns ids in increasing order after the largest id in the store', async () => {
    const store = await openInMemory();
    const first = await store.create({ name: 'Max', categoryId: 4, status: 'pending' });
    const second = await store.create({ name: 'Luna', categoryId: 5 });
    expect(first).toEqual({ id: 11, name: 'Max', categoryId: 4, status: 'pending' });
    expect(second.id).toBe(12);
  });

  it('starts at id 1 in an empty store', async () => {
    const store = await openInMemory([]);
    expect((await store.create({ name: 'First', categoryId: 1 })).id).toBe(1);
  });

  it('stores a created pet: it can be got and is listed last', async () => {
    const store = await openInMemory();
    const created = await store.create({ name: 'Max', categoryId: 4, status: 'pending' });
    expect(store.get(created.id)).toEqual(created);
    expect(store.list({ limit: 100 })).toEqual([...SORTED_INITIAL, created]);
    expect(store.size).toBe(3);
  });

  it('stores a pet created without status without a status field', async () => {
    const store = await openInMemory();
    const created = await store.create({ name: 'Nameless', categoryId: 1 });
    expect(created).toEqual({ id: 11, name: 'Nameless', categoryId: 1 });
    expect(Object.keys(store.get(11) ?? {})).not.toContain('status');
  });

  it('reset removes created pets and restores exactly the initial pets', async () => {
    const store = await openInMemory();
    const created = await store.create({ name: 'Max', categoryId: 4 });
    await store.reset();
    expect(store.get(created.id)).toBeUndefined();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(store.size).toBe(2);
  });

  it('reset restores the id counter: the next create gets the same id again', async () => {
    const store = await openInMemory();
    const before = await store.create({ name: 'Max', categoryId: 4 });
    await store.create({ name: 'Luna', categoryId: 4 });
    await store.reset();
    const after = await store.create({ name: 'Daisy', categoryId: 4 });
    expect(after.id).toBe(before.id);
  });

  it('can be reset again and again: each reset drops what was created since', async () => {
    const store = await openInMemory();
    await store.create({ name: 'One', categoryId: 1 });
    await store.reset();
    const again = await store.create({ name: 'Two', categoryId: 1 });
    await store.reset();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(store.get(again.id)).toBeUndefined();
    expect((await store.create({ name: 'Three', categoryId: 1 })).id).toBe(11);
  });

  it('keeps two stores opened from the same initial data apart', async () => {
    const initial = storeDataFrom(initialPets());
    const one = await openPetStore({ initial, checkPet });
    const two = await openPetStore({ initial, checkPet });
    await one.create({ name: 'Max', categoryId: 1 });
    expect(two.size).toBe(2);
    expect(two.get(11)).toBeUndefined();
  });
});

describe('PetStore in a JSON file (db)', () => {
  let dir: string;
  let snapshots: string;
  let taken = 0;

  beforeEach(() => {
    dir = makeTmpDir();
    snapshots = makeTmpDir();
  });

  afterEach(() => {
    removeTmpDir(dir);
    removeTmpDir(snapshots);
  });

  /**
   * Copies the store file and its append log as they are on disk at this moment, synchronously (so
   * that no later write of the store gets in): the append log first, as the file only changes after
   * an append log it makes obsolete was written. Returns the copy's path, for `readStoreFile`.
   */
  function snapshot(file: string): string {
    const copy = join(snapshots, `${String((taken += 1))}.json`);
    try {
      copyFileSync(appendLogPathOf(file), appendLogPathOf(copy));
    } catch (error) {
      if (!isRecord(error) || error.code !== 'ENOENT') throw error; // no append log (any more)
    }
    copyFileSync(file, copy);
    return copy;
  }

  /** What a restart would read from the store file right now. */
  async function onDisk(file: string): Promise<StoreData | null> {
    return readStoreFile(snapshot(file), checkPet);
  }

  it('creates the file with the initial data when it opens a new file', async () => {
    const file = join(dir, 'store.json');
    await openOnFile(file);
    expect(existsSync(file)).toBe(true);
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
  });

  it('has a created pet on disk once create() resolves', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const created = await store.create({ name: 'Max', categoryId: 4, status: 'pending' });
    expect(await onDisk(file)).toEqual({ nextId: 12, pets: [...SORTED_INITIAL, created] });
  });

  it('appends a created pet to the append log, leaving the file as it was', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const before = readFileSync(file, 'utf8');
    await store.create({ name: 'Max', categoryId: 4 });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readFileSync(appendLogPathOf(file), 'utf8')).toMatch(
      /^\{"sha256":"[0-9a-f]{64}"\}\n\{"id":11,"name":"Max","categoryId":4\}\n$/,
    );
  });

  it('a second store on the same file sees the created pet and continues the ids', async () => {
    const file = join(dir, 'store.json');
    const first = await openOnFile(file);
    const created = await first.create({ name: 'Max', categoryId: 4, status: 'pending' });
    const second = await reopenAfterCrash(file);
    expect(second.get(created.id)).toEqual(created);
    expect(second.list({ limit: 100 })).toEqual([...SORTED_INITIAL, created]);
    expect((await second.create({ name: 'Luna', categoryId: 1 })).id).toBe(Number(created.id) + 1);
  });

  it('writes the file whole when it opens it, with the pets of the append log', async () => {
    const file = join(dir, 'store.json');
    const first = await openOnFile(file);
    const created = await first.create({ name: 'Max', categoryId: 4 });
    await reopenAfterCrash(file);
    expect(readJsonFile(file)).toEqual({ nextId: 12, pets: [...SORTED_INITIAL, created] });
    expect(existsSync(appendLogPathOf(file))).toBe(false);
  });

  it("lets an existing file's content win over the initial data", async () => {
    const stored: Pet[] = [{ id: 50, name: 'Stored', categoryId: 7, status: 'available' }];
    const file = writeTmpFile(dir, 'store.json', { nextId: 51, pets: stored });
    const store = await openOnFile(file);
    expect(store.list({ limit: 100 })).toEqual(stored);
    expect((await store.create({ name: 'Next', categoryId: 1 })).id).toBe(51);
  });

  it('reset rewrites the file to the initial data and id counter', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    await store.create({ name: 'Max', categoryId: 4 });
    await store.reset();
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
    expect(existsSync(appendLogPathOf(file))).toBe(false);
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(await onDisk(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
  });

  it('reset restores the initial data, not what the file held when opened', async () => {
    const stored: Pet[] = [{ id: 50, name: 'Stored', categoryId: 7 }];
    const file = writeTmpFile(dir, 'store.json', { nextId: 51, pets: stored });
    const store = await openOnFile(file);
    await store.reset();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
  });

  it('has every pet of concurrent creates on disk when its create resolves', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const created = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const pet = await store.create({ name: `Pet ${i}`, categoryId: 1 + (i % 5) });
        return { pet, copy: snapshot(file) }; // taken at once, before any later write lands
      }),
    );
    for (const { pet, copy } of created) {
      expect((await readStoreFile(copy, checkPet))?.pets).toContainEqual(pet);
    }
    const pets = created.map(({ pet }) => pet);
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(200);
    expect(await onDisk(file)).toEqual({ nextId: 211, pets: [...SORTED_INITIAL, ...pets] });
    const reopened = await reopenAfterCrash(file);
    expect(reopened.list({ limit: 1000 })).toEqual([...SORTED_INITIAL, ...pets]);
  });

  it('is readable, and never goes back, at every moment of a run of writes', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const copies: string[] = [];
    const writes = { done: false };
    const watch = (async () => {
      while (!writes.done) {
        copies.push(snapshot(file));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let round = 0; round < 50; round += 1) {
      const batch = Array.from({ length: 6 }, (_, i) => ({
        name: `P${round}.${i}`,
        categoryId: 1,
      }));
      await Promise.all(batch.map((pet) => store.create(pet)));
      if (round === 25) await store.flush(); // folds the append log into the file once
    }
    writes.done = true;
    await watch;
    expect(copies.length).toBeGreaterThan(10);
    const sizes: number[] = [];
    for (const copy of copies) sizes.push((await readStoreFile(copy, checkPet))?.pets.length ?? -1);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect((await onDisk(file))?.pets).toHaveLength(302);
    expect(readdirSync(dir).sort()).toEqual([
      '.store.json.journal',
      '.store.json.lock',
      'store.json',
    ]);
  });

  it('writes the initial data when reset while creates are being written', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const creates = Array.from({ length: 20 }, (_, i) =>
      store.create({ name: `P${i}`, categoryId: 1 }),
    );
    const reset = store.reset();
    await Promise.all([...creates, reset]);
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
    const created = await store.create({ name: 'After', categoryId: 1 });
    expect(await onDisk(file)).toEqual({ nextId: 12, pets: [...SORTED_INITIAL, created] });
  });

  it('has everything in the file itself, and no append log, once flush resolves', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const first = await store.create({ name: 'Max', categoryId: 4 });
    const pending = [
      store.create({ name: 'Luna', categoryId: 4 }), // written at once
      store.create({ name: 'Daisy', categoryId: 4 }), // waits for the write before
    ];
    await store.flush();
    expect(readJsonFile(file)).toEqual({
      nextId: 14,
      pets: [...SORTED_INITIAL, first, ...(await Promise.all(pending))],
    });
    // The lock stays while the store is open.
    expect(readdirSync(dir).sort()).toEqual(['.store.json.lock', 'store.json']);
    await store.flush(); // nothing new: the file stays as it is
    expect(readdirSync(dir).sort()).toEqual(['.store.json.lock', 'store.json']);
    await store.close();
    expect(readdirSync(dir)).toEqual(['store.json']);
  });

  it('continues ids beyond 2^53 exactly, in the append log, the file and after a reopen', async () => {
    const file = join(dir, 'store.json');
    const big: Pet[] = [{ id: 9007199254740993n, name: 'Big', categoryId: 2n ** 63n - 1n }];
    const store = await openOnFile(file, big);
    const next = await store.create({ name: 'Next', categoryId: 1 });
    expect(next.id).toBe(9007199254740994n);
    expect(readFileSync(appendLogPathOf(file), 'utf8')).toContain('{"id":9007199254740994,');
    expect(await onDisk(file)).toEqual({ nextId: 9007199254740995n, pets: [...big, next] });
    await store.flush();
    expect(readFileSync(file, 'utf8')).toBe(
      '{"nextId":9007199254740995,"pets":[' +
        '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807},' +
        '{"id":9007199254740994,"name":"Next","categoryId":1}]}',
    );
    const reopened = await reopenAfterCrash(file, []);
    expect(reopened.get(9007199254740994n)).toEqual(next);
    expect((await reopened.create({ name: 'Third', categoryId: 1 })).id).toBe(9007199254740995n);
  });

  it('rejects a file that is not JSON, naming the file', async () => {
    const file = writeTmpFile(dir, 'store.json', '{"pets": [ not json');
    await expect(openOnFile(file)).rejects.toThrow(file);
  });

  it('rejects a file holding an invalid pet, naming the file', async () => {
    const file = writeTmpFile(dir, 'store.json', {
      nextId: 2,
      pets: [{ id: 1, name: 42, categoryId: 1 }],
    });
    await expect(openOnFile(file)).rejects.toThrow(file);
  });

  it('rejects a file that is JSON but not a store, naming the file', async () => {
    const file = writeTmpFile(dir, 'store.json', '[1, 2, 3]');
    await expect(openOnFile(file)).rejects.toThrow(file);
  });

  it('rejects a file in a directory that does not exist, naming the file', async () => {
    const file = join(dir, 'missing', 'store.json');
    await expect(openOnFile(file)).rejects.toThrow(file);
  });

  it('leaves a rejected file as it was', async () => {
    const file = writeTmpFile(dir, 'store.json', 'garbage');
    await expect(openOnFile(file)).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('garbage');
  });

  it('deletes an append log whose file was deleted before writing a new file', async () => {
    const file = join(dir, 'store.json');
    const killed = await openOnFile(file);
    await killed.create({ name: 'Gone', categoryId: 1 }); // in the append log; then "killed"
    rmSync(file); // the user starts over: the new file will have the old one's content
    // The first write of the next start fails (its temporary file cannot be created): had it
    // succeeded and the mock then crashed, an append log still there would extend the new file.
    mkdirSync(join(dir, '.store.json.tmp'));
    await expect(reopenAfterCrash(file)).rejects.toThrow(file);
    expect(existsSync(appendLogPathOf(file))).toBe(false);
    rmSync(join(dir, '.store.json.tmp'), { recursive: true });
    const fresh = await openOnFile(file);
    expect(fresh.list({ limit: 100 }).map((pet) => pet.name)).not.toContain('Gone');
  });

  it('takes over a lock whose process is gone', async () => {
    const file = join(dir, 'store.json');
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeTmpFile(dir, '.store.json.lock', child.stdout.toString()); // a pid that has exited
    const store = await openOnFile(file);
    const owner: unknown = JSON.parse(readFileSync(lockPathOf(file), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(JSON.stringify(owner)).toMatch(/"instance":"[0-9a-f-]{36}"/);
    await store.close();
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('refuses a file that a live process holds, naming it', async () => {
    const file = join(dir, 'store.json');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeTmpFile(dir, '.store.json.lock', String(holder.pid));
      await expect(openOnFile(file)).rejects.toThrow(
        `is in use by process ${String(holder.pid)} on ${hostname()} (one mock per --db file`,
      );
      expect(existsSync(file)).toBe(false);
    } finally {
      holder.kill();
    }
  });
});
