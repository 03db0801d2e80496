import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pet } from '../../src/pets/pet.js';
import { openPetStore } from '../../src/store/open-store.js';
import type { PetStore } from '../../src/store/pet-store.js';
import { storeDataFrom } from '../../src/store/store-data.js';
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

function openOnFile(dbPath: string, pets: Pet[] = initialPets()): Promise<PetStore> {
  return openPetStore({ initial: storeDataFrom(pets), dbPath, checkPet });
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

  it('is not changed by later changes to the initial data it was opened with', async () => {
    const initial = storeDataFrom(initialPets());
    const store = await openPetStore({ initial, checkPet });
    initial.pets.push({ id: 99, name: 'Intruder', categoryId: 1 });
    initial.nextId = 500;
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    await store.reset();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect((await store.create({ name: 'Max', categoryId: 1 })).id).toBe(11);
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

describe('PetStore in a JSON file (dbPath)', () => {
  let dir: string;

  beforeEach(() => {
    dir = makeTmpDir();
  });

  afterEach(() => {
    removeTmpDir(dir);
  });

  it('creates the file with the initial data when it opens a new file', async () => {
    const file = join(dir, 'store.json');
    await openOnFile(file);
    expect(existsSync(file)).toBe(true);
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
  });

  it('has written a created pet to the file once create() resolves', async () => {
    const file = join(dir, 'store.json');
    const store = await openOnFile(file);
    const created = await store.create({ name: 'Max', categoryId: 4, status: 'pending' });
    expect(readJsonFile(file)).toEqual({ nextId: 12, pets: [...SORTED_INITIAL, created] });
  });

  it('a second store on the same file sees the created pet and continues the ids', async () => {
    const file = join(dir, 'store.json');
    const first = await openOnFile(file);
    const created = await first.create({ name: 'Max', categoryId: 4, status: 'pending' });
    const second = await openOnFile(file);
    expect(second.get(created.id)).toEqual(created);
    expect(second.list({ limit: 100 })).toEqual([...SORTED_INITIAL, created]);
    expect((await second.create({ name: 'Luna', categoryId: 1 })).id).toBe(Number(created.id) + 1);
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
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
  });

  it('reset restores the initial data, not what the file held when opened', async () => {
    const stored: Pet[] = [{ id: 50, name: 'Stored', categoryId: 7 }];
    const file = writeTmpFile(dir, 'store.json', { nextId: 51, pets: stored });
    const store = await openOnFile(file);
    await store.reset();
    expect(store.list({ limit: 100 })).toEqual(SORTED_INITIAL);
    expect(readJsonFile(file)).toEqual({ nextId: 11, pets: SORTED_INITIAL });
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
});
