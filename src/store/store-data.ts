import type { Pet } from '../pets/pet.js';

/** What the store persists: the pets in ascending id order and the next id to assign. */
export interface StoreData {
  nextId: number;
  pets: Pet[];
}

/** A deep copy, so the initial data is never shared with the live store. */
export function copyStoreData(data: StoreData): StoreData {
  return { nextId: data.nextId, pets: data.pets.map((pet) => ({ ...pet })) };
}

/** Builds store data from pets: sorted by id, next id after the largest. */
export function storeDataFrom(pets: readonly Pet[]): StoreData {
  const sorted = [...pets].sort((a, b) => a.id - b.id);
  const last = sorted.at(-1);
  return { nextId: last ? last.id + 1 : 1, pets: sorted };
}
