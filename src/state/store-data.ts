import { compareInt64, nextInt64, type Int64 } from '../util/int64.js';
import type { Pet } from './pet.js';

/** What the store persists: the pets in ascending id order and the next id to assign. */
export interface StoreData {
  nextId: Int64;
  pets: Pet[];
}

/**
 * Store data that nothing changes: the initial data, which every store and session starts from
 * (and resets to) by copying it.
 */
export interface StoreSnapshot {
  readonly nextId: Int64;
  readonly pets: readonly Pet[];
}

/**
 * A copy whose pet list is the store's own. Pet objects are shared: the store never changes a
 * stored pet, it only appends new ones, so sessions and resets can share them cheaply.
 */
export function copyStoreData(data: StoreSnapshot): StoreData {
  return { nextId: data.nextId, pets: [...data.pets] };
}

/** Builds store data from pets: sorted by id, next id after the largest. */
export function storeDataFrom(pets: readonly Pet[]): StoreData {
  const sorted = [...pets].sort((a, b) => compareInt64(a.id, b.id));
  const last = sorted.at(-1);
  return { nextId: last ? nextInt64(last.id) : 1, pets: sorted };
}
