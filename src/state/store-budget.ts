import { Refusal } from '../util/refusal.js';
import { stringifyJson } from '../util/json-codec.js';
import type { Pet } from './pet.js';

/** What clients may add to the stores of one mock, whatever they send. */
export interface StoreLimits {
  /** Pets one store may add to its initial data, until its reset. */
  readonly maxPets: number;
  /** Bytes that the added pets of all stores may take together (see petCost). */
  readonly maxStoreBytes: number;
}

/** No budget: for a store that stands alone (its session's mock gives every store one). */
const UNBOUNDED: StoreLimits = Object.freeze({
  maxPets: Number.POSITIVE_INFINITY,
  maxStoreBytes: Number.POSITIVE_INFINITY,
});

/**
 * What a pet is charged, in bytes: its JSON text plus what V8 spends on any object, its array
 * slot and its strings' headers (measured at about 120 bytes for a small pet; 128 is charged).
 * A 100 kB name costs about 100 kB, and a million small pets about 200 MB, as in memory.
 */
const PET_OVERHEAD_BYTES = 128;

export function petCost(pet: Pet): number {
  return stringifyJson(pet).length + PET_OVERHEAD_BYTES;
}

/** A write of the store file failed: the create or reset it was for changed nothing. */
export class StoreWriteError extends Refusal {
  override name = 'StoreWriteError';

  constructor(message: string) {
    super(500, 'internal_error', message);
  }
}

/** A create over a budget: nothing was stored and no id was used. */
export class StoreFullError extends Refusal {
  override name = 'StoreFullError';

  constructor(message: string) {
    super(507, 'store_full', message);
  }

  /** One session added all the pets it may. */
  static ofPets(maxPets: number): StoreFullError {
    return new StoreFullError(
      `The mock's store is full: this session already added ${maxPets} pets (--max-pets). Reset it, or start the mock with a larger --max-pets.`,
    );
  }

  /** All sessions' pets take the bytes they may. */
  static ofBytes(used: number, maxStoreBytes: number): StoreFullError {
    return new StoreFullError(
      `The mock's store is full: the pets added by all sessions take ${used} of ${maxStoreBytes} bytes (--max-store-bytes). Reset sessions, or start the mock with a larger --max-store-bytes.`,
    );
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
    const { maxPets, maxStoreBytes } = this.limits;
    if (added >= maxPets) throw StoreFullError.ofPets(maxPets);
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
