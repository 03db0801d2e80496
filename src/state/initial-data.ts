import { readFileSync } from 'node:fs';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { errorMessage } from '../util/error-message.js';
import type { Int64 } from '../util/int64.js';
import { isRecord } from '../util/is-record.js';
import { parseJson } from '../util/json-codec.js';
import { InvalidPetError, checkPets } from './check-pets.js';
import { FileError, parseLocated, type PathStep, type Position } from '../util/located-file.js';
import { storeDataFrom, type StoreData } from './store-data.js';

/** Reads and checks a fixture file (a JSON array of Pet). */
export function loadFixtures(path: string, checkPet: SchemaCheck): StoreData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FileError(path, `cannot read the fixtures: ${errorMessage(error)}`);
  }
  // Where a problem is: the text parsed again with positions, only once one is found.
  const positionOf = (steps: readonly PathStep[]): Position | undefined => {
    try {
      return parseLocated(path, text).positionOf(steps);
    } catch (error) {
      return error instanceof FileError ? error.position : undefined;
    }
  };
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new FileError(path, `not JSON: ${errorMessage(error)}`, positionOf([]));
  }
  try {
    return storeDataFrom(checkPets(parsed, path, checkPet));
  } catch (error) {
    if (!(error instanceof InvalidPetError)) throw error;
    const at = error.index === undefined ? [] : [error.index];
    const entry = error.index === undefined ? '' : `entry ${error.index}: `;
    throw new FileError(path, `${entry}${error.reason}`, positionOf(at));
  }
}

/** Where the fixture of `id` is written in a fixture file, for a message; undefined if not found. */
export function placeOfFixture(path: string, id: Int64): Position | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const entries = parseJson(text);
    const index = Array.isArray(entries)
      ? entries.findIndex((entry: unknown) => isRecord(entry) && entry.id === id)
      : -1;
    return index < 0 ? undefined : parseLocated(path, text).positionOf([index]);
  } catch {
    return undefined; // edited or gone since: the file alone
  }
}
