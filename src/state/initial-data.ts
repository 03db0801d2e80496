import { readFileSync } from 'node:fs';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { errorMessage } from '../util/error-message.js';
import { parseJson } from '../util/json-codec.js';
import { checkPets } from './check-pets.js';
import { storeDataFrom, type StoreData } from './store-data.js';

/** Reads and checks a fixture file (a JSON array of Pet). */
export function loadFixtures(path: string, checkPet: SchemaCheck): StoreData {
  let parsed: unknown;
  try {
    parsed = parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read fixtures ${path}: ${errorMessage(error)}`);
  }
  return storeDataFrom(checkPets(parsed, path, checkPet));
}
