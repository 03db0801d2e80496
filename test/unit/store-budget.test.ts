// The store's budgets (issue 11): pets per session, bytes across sessions, nothing stored or
// numbered by a refused create; and sessions that share the initial data instead of copying it.
import {
  Journal,
  JOURNAL_ENTRY_LIMITS,
  type JournalRecord,
} from '../../src/state/request-journal.js';
import { createMemoryStore } from '../../src/state/open-store.js';
import type { Pet } from '../../src/state/pet.js';
import { StoreBudget } from '../../src/state/store-budget.js';
import { StoreFullError, petCost } from '../../src/state/store-limits.js';
import { storeDataFrom } from '../../src/state/store-data.js';

const PETS: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1 },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
];

describe('StoreBudget with the stores that draw from it', () => {
  it('refuses the create past --max-pets with StoreFullError, storing nothing and using no id', async () => {
    const store = createMemoryStore(
      storeDataFrom(PETS),
      new StoreBudget({ maxPets: 2, maxStoreBytes: 1e9 }),
    );
    await store.create({ name: 'a', categoryId: 1 });
    await store.create({ name: 'b', categoryId: 1 });
    await expect(store.create({ name: 'c', categoryId: 1 })).rejects.toThrow(StoreFullError);
    await expect(store.create({ name: 'c', categoryId: 1 })).rejects.toThrow(/--max-pets/);
    expect(store.size).toBe(4);
    await store.reset();
    expect(store.size).toBe(2);
    expect((await store.create({ name: 'd', categoryId: 1 })).id).toBe(3);
  });

  it('shares --max-store-bytes among stores, and gives back on reset and on discard', async () => {
    const pet = { name: 'x'.repeat(1000), categoryId: 1 };
    const cost = petCost({ id: 3, ...pet });
    const budget = new StoreBudget({ maxPets: 100, maxStoreBytes: 2 * cost + 10 });
    const one = createMemoryStore(storeDataFrom(PETS), budget);
    const two = createMemoryStore(storeDataFrom(PETS), budget);
    await one.create(pet);
    await two.create(pet);
    expect(budget.usedBytes).toBe(2 * cost);
    await expect(one.create(pet)).rejects.toThrow(/--max-store-bytes/);
    expect(one.size).toBe(3);
    await one.reset();
    expect(budget.usedBytes).toBe(cost);
    await one.create(pet);
    two.discard();
    expect(budget.usedBytes).toBe(cost);
    await two.create(pet); // a dropped session's late create is charged to nobody
    expect(budget.usedBytes).toBe(cost);
  });

  it('charges a pet about what it holds in memory: its JSON and a fixed overhead', () => {
    const small = petCost({ id: 1, name: 'Rex', categoryId: 1 });
    const big = petCost({ id: 1, name: 'x'.repeat(100_000), categoryId: 1 });
    expect(big - small).toBe(100_000 - 3);
    expect(small).toBeGreaterThan(100);
  });
});

describe('sessions in memory share the initial data', () => {
  it('keep no copy of the initial list: they read the one array every session shares', () => {
    const initial = storeDataFrom(PETS);
    const one = createMemoryStore(initial);
    const two = createMemoryStore(initial);
    // Only a shared list shows a pet put into it after the stores were made (the data never
    // changes in the mock; the test changes it to see whether the stores copied it).
    initial.pets.push({ id: 3, name: 'Late', categoryId: 1 });
    expect(one.get(3)?.name).toBe('Late');
    expect(two.list({ limit: 10 })).toHaveLength(3);
  });

  it('keep their own pets apart, after the shared ones, and a reset drops only their own', async () => {
    const initial = storeDataFrom(PETS);
    const one = createMemoryStore(initial);
    const two = createMemoryStore(initial);
    const created = await one.create({ name: 'Mine', categoryId: 3, status: 'sold' });
    expect(created.id).toBe(3);
    expect(one.list({ limit: 10 }).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(one.list({ limit: 2 }).map((p) => p.id)).toEqual([1, 2]);
    expect(one.list({ limit: 10, status: 'sold' }).map((p) => p.id)).toEqual([2, 3]);
    expect(one.get(3)?.name).toBe('Mine');
    expect(two.get(3)).toBeUndefined();
    expect(two.size).toBe(2);
    await one.reset();
    expect(one.size).toBe(2);
    expect(initial.pets).toHaveLength(2);
  });
});

function entryWith(path: string, errors: string[] = []): JournalRecord {
  return {
    time: Date.UTC(2030, 0, 1),
    requestId: 'r',
    method: 'GET',
    path,
    query: '',
    operationId: 'getPet',
    status: 400,
    scenario: null,
    validationErrors: errors,
  };
}

describe('Journal bytes', () => {
  it('keeps at most maxBytes, dropping the oldest, whatever the count allows', () => {
    const journal = new Journal(1000, 20_000);
    for (let i = 0; i < 100; i += 1) journal.record(entryWith(`/v1/pets/${'9'.repeat(15_500)}`));
    expect(journal.bytes).toBeLessThanOrEqual(20_000);
    const kept = journal.list(1000);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(100);
  });

  it('cuts long paths and validation errors, and says how many errors it left out', () => {
    const journal = new Journal(10);
    const errors = Array.from({ length: 30 }, (_, i) => `${i} ${'e'.repeat(2000)}`);
    journal.record(entryWith(`/v1/pets/${'9'.repeat(15_500)}`, errors));
    const [kept] = journal.list(1);
    expect(kept?.path).toHaveLength(JOURNAL_ENTRY_LIMITS.path + 1);
    expect(kept?.path.endsWith('…')).toBe(true);
    expect(kept?.validationErrors).toHaveLength(JOURNAL_ENTRY_LIMITS.errors + 1);
    expect(kept?.validationErrors[0]).toHaveLength(JOURNAL_ENTRY_LIMITS.error + 1);
    expect(kept?.validationErrors.at(-1)).toBe('(and 10 more)');
  });
});
