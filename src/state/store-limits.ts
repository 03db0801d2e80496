import { Refusal } from '../util/refusal.js';
import { stringifyJson } from '../util/json-codec.js';
import type { Item } from './item.js';
import type { Pet } from './pet.js';

// The budgets every backend applies to what clients add (the seam's, beside mock-state.ts): the
// memory and file stores count in StoreBudget (store-budget.ts), Redis in its scripts.

/** What clients may add to the stores of one mock, whatever they send. */
export interface StoreLimits {
  /** Pets one store may add to its initial data, until its reset. */
  readonly maxPets: number;
  /** Bytes that the added pets of all stores may take together (see petCost). */
  readonly maxStoreBytes: number;
}

/**
 * What a pet is charged, in bytes: its JSON text plus what V8 spends on any object, its array
 * slot and its strings' headers (measured at about 120 bytes for a small pet; 128 is charged).
 * A 100 kB name costs about 100 kB, and a million small pets about 200 MB, as in memory.
 */
const PET_OVERHEAD_BYTES = 128;

export function petCost(pet: Pet): number {
  return stringifyJson(pet).length + PET_OVERHEAD_BYTES;
}

/** What an item of another resource is charged, in bytes: as a pet, its JSON and an overhead. */
export function itemCost(item: Item): number {
  return stringifyJson(item).length + PET_OVERHEAD_BYTES;
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
