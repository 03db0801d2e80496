import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { Pet } from '../../src/state/pet.js';
import { appendLogHeader, appendLogPathOf } from '../../src/state/append-log-format.js';
import { PetStore } from '../../src/state/pet-store.js';
import { readStoreFile } from '../../src/state/read-store-file.js';
import { copyStoreData, storeDataFrom } from '../../src/state/store-data.js';
import { createStoreFile } from '../../src/state/store-file.js';
import { StoreWriteError } from '../../src/state/store-budget.js';
import { tempPathOf } from '../../src/util/write-file-atomically.js';
import { contract } from '../helpers/test-app.js';
import { makeTmpDir, readJsonFile, removeTmpDir } from '../helpers/tmp-dir.js';

const checkPet = contract.checkSchema('Pet');
const INITIAL: Pet[] = [{ id: 1, name: 'One', categoryId: 1 }];

let dir: string;
let file: string;

beforeEach(() => {
  dir = makeTmpDir();
  file = join(dir, 'store.json');
});

afterEach(() => {
  removeTmpDir(dir);
});

/** A store on `file` (written at once, as openPetStore does), folding its append log at `limit`. */
async function openStore(limit?: number): Promise<PetStore> {
  const adapter = createStoreFile(file, checkPet, limit);
  const initial = storeDataFrom(INITIAL);
  const db = new Low(adapter, (await adapter.read()) ?? copyStoreData(initial));
  await db.write();
  return new PetStore(db, initial);
}

const read = () => readStoreFile(file, checkPet);
const appendLog = () => appendLogPathOf(file);

describe('the store file and its append log', () => {
  it('folds the append log into the file once it reaches the limit', async () => {
    const store = await openStore(200); // the file is smaller: the limit counts
    const first = await store.create({ name: 'A'.repeat(80), categoryId: 1 });
    expect(existsSync(appendLog())).toBe(true);
    const second = await store.create({ name: 'B'.repeat(80), categoryId: 1 });
    const third = await store.create({ name: 'C', categoryId: 1 }); // the append log was full
    expect(readJsonFile(file)).toEqual({ nextId: 5, pets: [...INITIAL, first, second, third] });
    expect(existsSync(appendLog())).toBe(false);
    const fourth = await store.create({ name: 'D', categoryId: 1 });
    expect(await read()).toEqual({ nextId: 6, pets: [...INITIAL, first, second, third, fourth] });
  });

  it('ignores an append log left from before the file was last written whole (a crash)', async () => {
    const store = await openStore();
    const created = await store.create({ name: 'A', categoryId: 1 });
    copyFileSync(appendLog(), join(dir, 'old'));
    await store.flush(); // writes the file whole, then deletes the append log
    copyFileSync(join(dir, 'old'), appendLog()); // as if the crash came before the deletion
    expect(await read()).toEqual({ nextId: 3, pets: [...INITIAL, created] });
  });

  it('keeps an append log that does not extend the file aside, and says so, after a hand edit', async () => {
    const store = await openStore();
    for (const name of ['A', 'B', 'C']) await store.create({ name, categoryId: 1 });
    // The same content, pretty-printed by hand: the append log's digest no longer matches.
    writeFileSync(file, JSON.stringify(readJsonFile(file), null, 2));
    const warnings: string[] = [];
    const adapter = createStoreFile(file, checkPet, undefined, (message) => warnings.push(message));
    expect(await adapter.read()).toEqual({ nextId: 2, pets: INITIAL });
    expect(existsSync(appendLog())).toBe(false);
    const aside = readdirSync(dir).filter((name) => name.includes('.journal.stale-'));
    expect(aside).toHaveLength(1);
    expect(
      readFileSync(join(dir, aside[0] ?? ''), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(4);
    expect(warnings).toEqual([
      expect.stringContaining(`its 3 pets are not loaded; kept as ${join(dir, aside[0] ?? '')}`),
    ]);
  });

  it('after a crash in the middle of a reset, reads the state before it or after it', async () => {
    const store = await openStore();
    const created = await store.create({ name: 'A', categoryId: 1 });
    copyFileSync(appendLog(), join(dir, 'old'));
    await store.reset();
    copyFileSync(join(dir, 'old'), appendLog()); // the reset's file is in place, the append log not gone
    // The reset put back the very file the append log extends: the state before the reset.
    expect(await read()).toEqual({ nextId: 3, pets: [...INITIAL, created] });

    const other = await openStore(); // the file now holds [One, A]
    const later = await other.create({ name: 'B', categoryId: 1 });
    copyFileSync(appendLog(), join(dir, 'old'));
    await other.reset();
    copyFileSync(join(dir, 'old'), appendLog());
    // The append log extends [One, A], the file is [One]: the state after the reset.
    expect(later.id).toBe(3);
    expect(await read()).toEqual({ nextId: 2, pets: INITIAL });
  });

  it('ignores a last append log line cut short by a crash', async () => {
    const store = await openStore();
    const created = await store.create({ name: 'A', categoryId: 1 });
    writeFileSync(appendLog(), `${readFileSync(appendLog(), 'utf8')}{"id":3,"name":"Half`);
    expect(await read()).toEqual({ nextId: 3, pets: [...INITIAL, created] });
  });

  it('rejects an append log entry that is not a pet, or not after the pets before, naming it', async () => {
    const store = await openStore();
    await store.create({ name: 'A', categoryId: 1 });
    const text = readFileSync(appendLog(), 'utf8');
    writeFileSync(appendLog(), `${text}{"id":3,"name":7,"categoryId":1}\n`);
    await expect(read()).rejects.toThrow(appendLog());
    writeFileSync(appendLog(), `${text}{"id":1,"name":"Again","categoryId":1}\n`);
    await expect(read()).rejects.toThrow(
      `${appendLog()}: line 3: id 1 is not after the ids before`,
    );
  });

  it('reads an old file without an append log, and an append log without a header as none', async () => {
    writeFileSync(file, '{"pets":[{"id":4,"name":"Old","categoryId":2}],"nextId":9}');
    expect(await read()).toEqual({ nextId: 9, pets: [{ id: 4, name: 'Old', categoryId: 2 }] });
    writeFileSync(appendLog(), '{"sha2');
    expect(await read()).toEqual({ nextId: 9, pets: [{ id: 4, name: 'Old', categoryId: 2 }] });
    writeFileSync(
      appendLog(),
      `${appendLogHeader('0'.repeat(64))}{"id":5,"name":"New","categoryId":2}\n`,
    );
    expect((await read())?.pets).toHaveLength(1); // extends another file
  });

  it('writes the file whole after a failed append, so no append follows a partial one', async () => {
    const store = await openStore();
    mkdirSync(join(appendLog(), 'blocked'), { recursive: true }); // the append log cannot be put in place
    await expect(store.create({ name: 'A', categoryId: 1 })).rejects.toThrow(StoreWriteError);
    // Memory follows disk: the pet of the failed create is gone, and its id is not used again.
    expect(store.get(2)).toBeUndefined();
    expect(store.size).toBe(1);
    rmSync(appendLog(), { recursive: true });
    const next = await store.create({ name: 'B', categoryId: 1 });
    expect(next.id).toBe(3);
    expect(readJsonFile(file)).toEqual({ nextId: 4, pets: [...INITIAL, next] });
    expect(existsSync(appendLog())).toBe(false);
  });

  it('changes nothing on a reset whose write fails, and says the store could not be written', async () => {
    const store = await openStore();
    const kept = await store.create({ name: 'Kept', categoryId: 1 });
    mkdirSync(tempPathOf(file)); // the file cannot be written whole: its temporary file is a folder
    await expect(store.reset()).rejects.toThrow(
      /could not write its store file, so nothing was reset/,
    );
    rmSync(tempPathOf(file), { recursive: true });
    expect(store.get(kept.id)).toEqual(kept);
    expect(store.size).toBe(2);
    expect((await store.create({ name: 'After', categoryId: 1 })).id).toBe(3);
  });
});
