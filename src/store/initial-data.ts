import { readFileSync } from 'node:fs';
import { Faker, base, en } from '@faker-js/faker';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { errorMessage } from '../error-message.js';
import { parseJson } from '../json/json-codec.js';
import { PET_STATUSES, type Pet } from '../pets/pet.js';
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

/**
 * Generates `count` pets from `seed` with a faker instance of its own, so the same seed and count
 * give the same pets on every run and machine (with the locked faker version).
 */
export function generatePets(seed: number, count: number): StoreData {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  const pets: Pet[] = [];
  for (let id = 1; id <= count; id += 1) {
    pets.push({
      id,
      name: faker.animal.petName(),
      categoryId: faker.number.int({ min: 1, max: 12 }),
      status: faker.helpers.arrayElement(PET_STATUSES),
    });
  }
  return storeDataFrom(pets);
}
