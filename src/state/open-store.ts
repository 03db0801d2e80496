import { Low, type Adapter } from 'lowdb';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { errorMessage } from '../util/error-message.js';
import { PetStore } from './pet-store.js';
import type { StoreBudget } from './store-budget.js';
import { copyStoreData, type StoreData, type StoreSnapshot } from './store-data.js';
import { createStoreFile } from './store-file.js';
import { lockStoreFile, type StoreLock } from './store-lock.js';

export interface OpenStoreOptions {
  /** Initial data: what a new store starts from and what reset restores. */
  initial: StoreData;
  /** A JSON file that keeps the store across restarts; in memory when absent. */
  db?: string | undefined;
  checkPet: SchemaCheck;
  /** What clients may add: shared by every store of one mock; unlimited-ish defaults if absent. */
  budget?: StoreBudget | undefined;
  /** Told what the store could not use and kept aside (a stale append log); silent if absent. */
  warn?: ((message: string) => void) | undefined;
}

/**
 * A store in memory that shares `initial` (never changed) and keeps only what it adds: the default
 * session's or a named one's.
 */
export function createMemoryStore(initial: StoreSnapshot, budget?: StoreBudget): PetStore {
  return new PetStore(undefined, initial, budget ? { budget } : {});
}

/** Opens a pet store: in memory, or in a JSON file whose existing content wins over `initial`. */
export async function openPetStore({
  initial,
  db,
  checkPet,
  budget,
  warn,
}: OpenStoreOptions): Promise<PetStore> {
  if (db === undefined) {
    return createMemoryStore(initial, budget);
  }
  let lock: StoreLock;
  try {
    lock = await lockStoreFile(db);
  } catch (error) {
    throw new Error(`cannot use the store file ${db}: ${errorMessage(error)}`);
  }
  try {
    const file = createStoreFile(db, checkPet, undefined, warn);
    const stored = await file.read(); // moves a stale append log aside, before anything is written
    // Fencing: no write once another mock took the lock over (a create then answers 500).
    const fenced: Adapter<StoreData> = {
      read: () => file.read(),
      // Started at once when the lock was confirmed recently: a write serializes what is stored
      // when it starts, and one that waited would take in the next creates' pets as well.
      write: (data) => {
        const check = lock.confirm();
        return check ? check.then(() => file.write(data)) : file.write(data);
      },
    };
    const low = new Low(fenced, stored ?? copyStoreData(initial));
    // Written at once, so a new file exists (and a bad path fails) before the server answers.
    try {
      await low.write();
    } catch (error) {
      throw new Error(`cannot write the store file ${db}: ${errorMessage(error)}`);
    }
    const release = () => lock.release();
    return new PetStore(low, initial, budget ? { budget, release } : { release });
  } catch (error) {
    await lock.release();
    throw error;
  }
}
