import { Faker, base, en } from '@faker-js/faker';
import { PET_STATUSES, type Pet } from './pet.js';
import { storeDataFrom, type StoreData } from './store-data.js';

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
