import type { SchemaCheck } from '../contract/schema-validator.js';
import type { Contract } from '../contract/load-contract.js';
import { isRecord } from '../util/is-record.js';
import { isInt64, type Int64 } from '../util/int64.js';
import { validationView } from '../util/json-codec.js';
import { isPetStatus, type Pet } from './pet.js';

function isPet(value: unknown): value is Pet {
  return (
    isRecord(value) &&
    isInt64(value.id) &&
    typeof value.name === 'string' &&
    isInt64(value.categoryId) &&
    (value.status === undefined || isPetStatus(value.status))
  );
}

/** Only the Pet fields, in a stable order. */
function petFields(pet: Pet): Pet {
  const copy: Pet = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) copy.status = pet.status;
  return copy;
}

/** An entry of a list of pets that is not a Pet the mock can keep; `index` is its place. */
export class InvalidPetError extends Error {
  override name = 'InvalidPetError';

  constructor(
    source: string,
    readonly index: number | undefined,
    readonly reason: string,
  ) {
    super(`${source}: ${index === undefined ? '' : `entry ${index}: `}${reason}`);
  }
}

/**
 * Checks a list of pets against the contract's Pet schema, plus what the mock needs (positive,
 * unique ids). Throws a message naming the source and the entry at fault.
 */
export function checkPets(value: unknown, source: string, checkPet: SchemaCheck): Pet[] {
  if (!Array.isArray(value))
    throw new InvalidPetError(source, undefined, 'expected a JSON array of pets');
  const seen = new Set<Int64>();
  return value.map((entry: unknown, index) => {
    // The schema sees rounded int64 values; isPet checks that they are exact int64s.
    const problems = [...checkPet(validationView(entry))];
    if (isPet(entry)) {
      if (entry.id < 1) problems.push('/id must be a positive integer');
      if (seen.has(entry.id)) problems.push(`/id ${String(entry.id)} is used by an earlier entry`);
      seen.add(entry.id);
    }
    if (problems.length > 0 || !isPet(entry)) {
      const detail = problems.length > 0 ? problems.join('; ') : 'is not a Pet';
      throw new InvalidPetError(source, index, detail);
    }
    return petFields(entry);
  });
}

/**
 * The check pets are kept with: the contract's Pet schema; for a contract without one, a check
 * no pet passes (it keeps none).
 */
export function petCheckOf(contract: Pick<Contract, 'hasSchema' | 'checkSchema'>): SchemaCheck {
  return contract.hasSchema('Pet')
    ? contract.checkSchema('Pet')
    : () => ['the contract has no Pet schema to keep pets as'];
}
