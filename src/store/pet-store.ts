import type { Low } from 'lowdb';
import { nextInt64, type Int64 } from '../json/int64.js';
import type { NewPet, Pet, PetStatus } from './pet.js';
import { createCoalescedWrite } from './coalesced-write.js';
import { copyStoreData, type StoreData, type StoreSnapshot } from './store-data.js';

/** The query of listPets, after validation and defaults. */
export interface ListQuery {
  limit: number;
  status?: PetStatus;
}

/** The pets of one store, over an injected lowdb; knows nothing of HTTP. */
export class PetStore {
  readonly #db: Low<StoreData>;
  readonly #initial: StoreSnapshot;
  /** Saves the store; concurrent callers share one write. */
  readonly #save: () => Promise<void>;

  /** Gives back what the store holds besides memory (a file store's lock). */
  readonly #release: () => Promise<void>;

  /**
   * `db` must already hold validated data; `initial` is what reset() restores; `release` is
   * called by close().
   */
  constructor(
    db: Low<StoreData>,
    initial: StoreSnapshot,
    release: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.#db = db;
    // Its own copy of the list: a caller changing its initial data later changes nothing here.
    this.#initial = copyStoreData(initial);
    this.#save = createCoalescedWrite(() => db.write());
    this.#release = release;
  }

  /** Number of pets stored. */
  get size(): number {
    return this.#db.data.pets.length;
  }

  /** Pets in ascending id order; O(limit) when unfiltered. */
  list({ limit, status }: ListQuery): Pet[] {
    const { pets } = this.#db.data;
    if (status === undefined) return pets.slice(0, limit);
    const found: Pet[] = [];
    for (const pet of pets) {
      if (pet.status !== status) continue;
      found.push(pet);
      if (found.length === limit) break;
    }
    return found;
  }

  /** The pet with this id, if any: a binary search, as pets are kept in ascending id order. */
  get(id: Int64): Pet | undefined {
    const { pets } = this.#db.data;
    let low = 0;
    let high = pets.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const pet = pets[middle];
      if (pet === undefined || pet.id === id) return pet;
      if (pet.id < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Stores a new pet under the next id; resolves once the store has written it. */
  async create(newPet: NewPet): Promise<Pet> {
    const data = this.#db.data;
    const pet: Pet = { id: data.nextId, name: newPet.name, categoryId: newPet.categoryId };
    if (newPet.status !== undefined) pet.status = newPet.status;
    data.nextId = nextInt64(data.nextId);
    data.pets.push(pet);
    await this.#save();
    return pet;
  }

  /**
   * Resolves once everything stored so far is written (a no-op in memory). A file store is then
   * written whole, its journal folded in, unless creates came meanwhile: as on shutdown.
   */
  async flush(): Promise<void> {
    await this.#save();
    await this.#save(); // adds nothing: a file store writes the file whole
  }

  /** Writes everything (see flush) and lets go of the file: on shutdown. */
  async close(): Promise<void> {
    await this.flush();
    await this.#release();
  }

  /** Puts back exactly the initial pets and id counter. */
  async reset(): Promise<void> {
    this.#db.data = copyStoreData(this.#initial);
    await this.#save();
  }
}
