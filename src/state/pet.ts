import type { Int64 } from '../util/int64.js';

/** The values of the contract's PetStatus enumeration. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

export type PetStatus = (typeof PET_STATUSES)[number];

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
