import type { Int64 } from '../util/int64.js';

import { PET_STATUSES, type PetStatus } from '../config/vocabularies.js';

export { PET_STATUSES, type PetStatus } from '../config/vocabularies.js';

/** The contract's NewPet: the body of createPet. */
export interface NewPet {
  name: string;
  categoryId: Int64;
  status?: PetStatus;
}

/** The contract's Pet: a NewPet with the id the service assigned. */
export interface Pet extends NewPet {
  id: Int64;
}

/** Tells whether a value is one of the PetStatus values. */
export function isPetStatus(value: unknown): value is PetStatus {
  return PET_STATUSES.some((status) => status === value);
}

/** Binary search of pets in ascending id order. */
export function findById(pets: readonly Pet[], id: Int64): Pet | undefined {
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
