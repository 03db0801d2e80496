import type { Low } from 'lowdb';
import { nextInt64, type Int64 } from '../util/int64.js';
import { findById, type NewPet, type Pet } from './pet.js';
import type { ListQuery } from './mock-state.js';
import { createCoalescedWrite } from '../util/coalesced-write.js';
import { copyStoreData, type StoreData, type StoreSnapshot } from './store-data.js';
import { StoreBudget, StoreWriteError } from './store-budget.js';
import { petCost } from './store-limits.js';
import { errorMessage } from '../util/error-message.js';

/**
 * The pets of one store, knows nothing of HTTP. They are kept in ascending id order as a base
 * that is never changed, then the store's own: a store in memory starts from the initial data
 * shared with every other session (its own list empty), so a new session costs no copy of a large
 * initial list, and only what it adds. A file store's own list is the lowdb data it writes.
 */
export class PetStore {
  /** A file store's lowdb; undefined in memory, where nothing is written. */
  readonly #db: Low<StoreData> | undefined;
  #initial: StoreSnapshot;
  readonly #budget: StoreBudget;
  /** Saves the store; concurrent callers share one write. */
  readonly #save: () => Promise<void>;
  /** Gives back what the store holds besides memory (a file store's lock). */
  readonly #release: () => Promise<void>;

  #base: readonly Pet[];
  #own: Pet[];
  #nextId: Int64;
  /** Pets added since the start or the last reset, and the bytes they were charged. */
  #added = 0;
  #addedBytes = 0;
  /** Set once its session is dropped: what it adds then is charged to no budget. */
  #discarded = false;
  /**
   * Pets at the end of the own list whose write has not finished: not shown yet, so no client sees
   * a pet that a failed write then takes back. Writes finish in order, so they are always the last.
   */
  #unwritten = 0;
  /** A reset of a file store under way: creates wait for it, so the two never interleave. */
  #resetting: Promise<void> | undefined;

  /**
   * In memory without `db`; else `db` must already hold validated data, which the store then
   * owns and writes. `initial` is what reset() restores; it is shared, never changed. `release`
   * is called by close().
   */
  constructor(
    db: Low<StoreData> | undefined,
    initial: StoreSnapshot,
    options: { budget?: StoreBudget; release?: () => Promise<void> } = {},
  ) {
    this.#db = db;
    this.#initial = initial;
    this.#budget = options.budget ?? new StoreBudget();
    this.#save = db ? createCoalescedWrite(() => db.write()) : () => Promise.resolve();
    this.#release = options.release ?? (() => Promise.resolve());
    if (db) {
      this.#base = [];
      this.#own = db.data.pets;
      this.#nextId = db.data.nextId;
    } else {
      this.#base = initial.pets;
      this.#own = [];
      this.#nextId = initial.nextId;
    }
  }

  /** Number of pets stored (written). */
  get size(): number {
    return this.#base.length + this.#written();
  }

  /** How many of the own pets are written: the first ones. */
  #written(): number {
    return this.#own.length - this.#unwritten;
  }

  /**
   * The initial pets to show: `initial` (a request's version's, see MockState.listPets) in memory,
   * else the store's own base; a file store has none, its file holds them all.
   */
  #baseFor(initial: readonly Pet[] | undefined): readonly Pet[] {
    return initial === undefined || this.#db ? this.#base : initial;
  }

  /** Pets in ascending id order; O(limit) when unfiltered. */
  list({ limit, status }: ListQuery, initial?: readonly Pet[]): Pet[] {
    const base = this.#baseFor(initial);
    const written = this.#written();
    if (status === undefined) {
      const first = base.slice(0, limit);
      if (first.length === limit) return first;
      return first.concat(this.#own.slice(0, Math.min(limit - first.length, written)));
    }
    const found: Pet[] = [];
    for (const pets of [base, this.#own]) {
      const end = pets === this.#own ? written : pets.length;
      for (let i = 0; i < end; i += 1) {
        const pet = pets[i];
        if (pet?.status !== status) continue;
        found.push(pet);
        if (found.length === limit) return found;
      }
    }
    return found;
  }

  /** The pet with this id, if any: a binary search, as pets are kept in ascending id order. */
  get(id: Int64, initial?: readonly Pet[]): Pet | undefined {
    const base = findById(this.#baseFor(initial), id);
    if (base !== undefined) return base;
    const own = findById(this.#own, id);
    const firstUnwritten = this.#own[this.#written()];
    return own !== undefined && (firstUnwritten === undefined || own.id < firstUnwritten.id)
      ? own
      : undefined;
  }

  /**
   * Stores a new pet under the next id; resolves once the store has written it. Over a budget it
   * throws StoreFullError: nothing stored, no id used.
   */
  async create(newPet: NewPet): Promise<Pet> {
    while (this.#resetting) await this.#resetting.catch(() => undefined);
    const pet: Pet = { id: this.#nextId, name: newPet.name, categoryId: newPet.categoryId };
    if (newPet.status !== undefined) pet.status = newPet.status;
    const cost = petCost(pet);
    if (!this.#discarded) {
      this.#budget.take(this.#added, cost);
      this.#addedBytes += cost;
    }
    this.#added += 1;
    this.#nextId = nextInt64(this.#nextId);
    this.#own.push(pet);
    this.#unwritten += 1;
    if (this.#db) this.#db.data.nextId = this.#nextId;
    try {
      await this.#save();
    } catch (error) {
      this.#unwritten -= 1;
      this.#forget(pet, cost);
      throw new StoreWriteError(
        `The mock could not write its store file, so the pet was not created: ${errorMessage(error)}`,
      );
    }
    this.#unwritten -= 1;
    return pet;
  }

  /**
   * Resolves once everything stored so far is written (a no-op in memory). A file store is then
   * written whole, its append log folded in, unless creates came meanwhile: as on shutdown.
   */
  async flush(): Promise<void> {
    await this.#save();
    await this.#save(); // adds nothing: a file store writes the file whole
  }

  /** Writes everything (see flush) and lets go of the file: on shutdown. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#release(); // also when the last write fails: the lock must not outlive the store
    }
  }

  /** Puts back exactly the initial pets and id counter, and gives back what they were charged. */
  async reset(): Promise<void> {
    const db = this.#db;
    if (!db) {
      this.#own = [];
      this.#nextId = this.#initial.nextId;
      this.#giveBack();
      return;
    }
    while (this.#resetting) await this.#resetting.catch(() => undefined);
    const resetting = this.#resetFile(db);
    this.#resetting = resetting;
    try {
      await resetting;
    } finally {
      if (this.#resetting === resetting) this.#resetting = undefined;
    }
  }

  /** A file store's reset: a reset whose write fails changes nothing. */
  async #resetFile(db: Low<StoreData>): Promise<void> {
    // Creates already under way finish first (each answers for its own write); new ones wait.
    if (this.#unwritten > 0) await this.#save().catch(() => undefined);
    const before = { data: db.data, nextId: this.#nextId };
    const charged = { added: this.#added, bytes: this.#addedBytes };
    db.data = copyStoreData(this.#initial);
    this.#own = db.data.pets;
    this.#nextId = this.#initial.nextId;
    this.#added = 0;
    this.#addedBytes = 0;
    try {
      await this.#save();
    } catch (error) {
      db.data = before.data;
      this.#own = before.data.pets;
      this.#nextId = before.nextId;
      this.#added = charged.added;
      this.#addedBytes = charged.bytes;
      throw new StoreWriteError(
        `The mock could not write its store file, so nothing was reset: ${errorMessage(error)}`,
      );
    }
    if (!this.#discarded) this.#budget.give(charged.bytes);
  }

  /**
   * Memory follows disk: the pet of a failed write goes again. Its id is not handed out again
   * (the counter stays ahead of it, and so does the file's, written whole next). The list is a new
   * one, so a file store's next write serializes it from the start. (A reset waits for creates
   * under way, so the pet is still in the list.)
   */
  #forget(pet: Pet, cost: number): void {
    this.#own = this.#own.filter((kept) => kept !== pet);
    if (this.#db) this.#db.data.pets = this.#own;
    if (!this.#discarded) {
      this.#added -= 1;
      this.#addedBytes -= cost;
      this.#budget.give(cost);
    }
  }

  /**
   * The pets it keeps besides the initial data: in memory those it added (they sit after the
   * initial data); a file store's whole list (the file wins over the initial data until a reset).
   */
  storedPets(): { readonly pets: readonly Pet[]; readonly layered: boolean } {
    return { pets: this.#own.slice(0, this.#written()), layered: this.#db === undefined };
  }

  /**
   * New initial data (a reload): what reset() restores from now on. In memory it is also what the
   * pets it added sit on, and the next id stays after both; a file store keeps its file's pets.
   */
  rebase(initial: StoreSnapshot): void {
    this.#initial = initial;
    if (this.#db) return;
    this.#base = initial.pets;
    if (this.#nextId < initial.nextId) this.#nextId = initial.nextId;
  }

  /** Its session was dropped: gives back its budget, and charges nothing from now on. */
  discard(): void {
    this.#giveBack();
    this.#discarded = true;
  }

  #giveBack(): void {
    if (!this.#discarded) this.#budget.give(this.#addedBytes);
    this.#added = 0;
    this.#addedBytes = 0;
  }
}
