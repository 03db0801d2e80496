import { Refusal } from '../util/refusal.js';
import { StoreFullError, type StoreLimits } from './store-limits.js';

/** No budget: for a store that stands alone (its session's mock gives every store one). */
const UNBOUNDED: StoreLimits = Object.freeze({
  maxPets: Number.POSITIVE_INFINITY,
  maxStoreBytes: Number.POSITIVE_INFINITY,
});

/** A write of the store file failed: the create or reset it was for changed nothing. */
export class StoreWriteError extends Refusal {
  override name = 'StoreWriteError';

  constructor(message: string) {
    super(500, 'internal_error', message);
  }
}

/**
 * The bytes budget that every store of one mock draws from (the default session's and each
 * X-Mock-Session's), and the pets budget each store applies to itself.
 */
export class StoreBudget {
  readonly limits: StoreLimits;
  #usedBytes = 0;

  constructor(limits: StoreLimits = UNBOUNDED) {
    this.limits = limits;
  }

  /** Bytes taken by the added pets of all stores. */
  get usedBytes(): number {
    return this.#usedBytes;
  }

  /**
   * Takes `bytes` for one more pet of a store that has added `added` pets so far; throws
   * StoreFullError, taking nothing, when either budget would be exceeded.
   */
  take(added: number, bytes: number): void {
    const { maxPets } = this.limits;
    if (added >= maxPets) throw StoreFullError.ofPets(maxPets);
    this.takeBytes(bytes);
  }

  /**
   * Takes `bytes` for a write that adds nothing to count (an item replaced); throws
   * StoreFullError, taking nothing, when the bytes budget would be exceeded.
   */
  takeBytes(bytes: number): void {
    const { maxStoreBytes } = this.limits;
    if (this.#usedBytes + bytes > maxStoreBytes) {
      throw StoreFullError.ofBytes(this.#usedBytes, maxStoreBytes);
    }
    this.#usedBytes += bytes;
  }

  /** Gives back what a store's added pets took: on its reset, or when its session is dropped. */
  give(bytes: number): void {
    this.#usedBytes = Math.max(0, this.#usedBytes - bytes);
  }
}
