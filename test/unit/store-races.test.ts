// Creates and resets of a file store that overlap their writes (issue 11, memory follows disk):
// a pet is shown only once written, a reset never interleaves with a create, and the budget
// charges exactly what the store holds. The writes are held back and let go one at a time.
import { Low, type Adapter } from 'lowdb';
import type { Pet } from '../../src/state/pet.js';
import { PetStore } from '../../src/state/pet-store.js';
import { StoreBudget, StoreWriteError } from '../../src/state/store-budget.js';
import { petCost } from '../../src/state/store-limits.js';
import { copyStoreData, storeDataFrom, type StoreData } from '../../src/state/store-data.js';

const INITIAL: Pet[] = [{ id: 1, name: 'One', categoryId: 1 }];

/** A write held until the test settles it. */
interface HeldWrite {
  readonly pets: readonly Pet[];
  succeed(): void;
  fail(): void;
}

/** An adapter whose writes wait to be settled, in order, as a file's do. */
function heldAdapter(): { adapter: Adapter<StoreData>; writes: HeldWrite[] } {
  const writes: HeldWrite[] = [];
  const adapter: Adapter<StoreData> = {
    read: () => Promise.resolve(null),
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        writes.push({
          pets: [...data.pets],
          succeed: resolve,
          fail: () => {
            reject(new Error('ENOSPC: no space left on device'));
          },
        });
      }),
  };
  return { adapter, writes };
}

/** Lets the event loop run what the settled writes resumed. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function fileStore(budget: StoreBudget): { store: PetStore; writes: HeldWrite[] } {
  const initial = storeDataFrom(INITIAL);
  const { adapter, writes } = heldAdapter();
  const db = new Low(adapter, copyStoreData(initial));
  return { store: new PetStore(db, initial, { budget }), writes };
}

function names(store: PetStore): string[] {
  return store.list({ limit: 100 }).map((pet) => pet.name);
}

describe('a file store whose writes overlap', () => {
  it('shows a pet only once its write succeeded, and never one whose write failed', async () => {
    const { store, writes } = fileStore(new StoreBudget());
    const lost = store.create({ name: 'Lost', categoryId: 1 });
    await settle();
    expect(names(store)).toEqual(['One']);
    expect(store.get(2)).toBeUndefined();
    expect(store.list({ limit: 100, status: 'available' })).toEqual([]);
    expect(store.size).toBe(1);

    const kept = store.create({ name: 'Kept', categoryId: 1, status: 'available' });
    writes[0]?.fail();
    await expect(lost).rejects.toThrow(StoreWriteError);
    await settle();
    expect(names(store)).toEqual(['One']); // Kept waits for its own write
    writes[1]?.succeed();
    expect(await kept).toMatchObject({ id: 3, name: 'Kept' });
    expect(names(store)).toEqual(['One', 'Kept']);
    expect(store.get(3)).toMatchObject({ name: 'Kept' });
    expect(store.list({ limit: 100, status: 'available' })).toHaveLength(1);
  });

  it('makes a create that comes during a failing reset wait for it: no id twice, no pet lost', async () => {
    const budget = new StoreBudget();
    const { store, writes } = fileStore(budget);
    const first = store.create({ name: 'Before', categoryId: 1 });
    await settle();
    writes[0]?.succeed();
    const before = await first;

    const reset = store.reset();
    await settle();
    const during = store.create({ name: 'During', categoryId: 1 });
    await settle();
    expect(writes).toHaveLength(2); // the reset's, which the create waits for
    expect(writes.at(-1)?.pets.map((pet) => pet.name)).toEqual(['One']);
    writes.at(-1)?.fail();
    await expect(reset).rejects.toThrow(/nothing was reset/);
    await settle();
    writes.at(-1)?.succeed();
    const created = await during;

    expect(created.id).not.toBe(before.id);
    expect(writes.at(-1)?.pets.map((pet) => pet.name)).toEqual(['One', 'Before', 'During']);
    expect(names(store)).toEqual(['One', 'Before', 'During']);
    expect(budget.usedBytes).toBe(petCost(before) + petCost(created));
  });

  it('charges the budget exactly what is held after a reset and a create that overlap', async () => {
    const budget = new StoreBudget();
    const { store, writes } = fileStore(budget);
    const first = store.create({ name: 'Before', categoryId: 1 });
    await settle();
    const reset = store.reset(); // while the create's write is under way
    const during = store.create({ name: 'During', categoryId: 1 });
    for (let i = 0; i < 10; i += 1) {
      for (const write of writes) write.succeed(); // in order; a settled one stays as it was
      await settle();
    }
    await Promise.all([first, reset]);
    const created = await during;

    expect(names(store)).toEqual(['One', 'During']);
    expect(budget.usedBytes).toBe(petCost(created));
  });
});
