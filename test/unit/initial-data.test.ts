import { createHash } from 'node:crypto';
import { faker } from '@faker-js/faker';
import { defaultFixturesPath } from '../../src/util/paths.js';
import type { Pet } from '../../src/state/pet.js';
import { generatePets } from '../../src/state/generate-pets.js';
import { loadFixtures } from '../../src/state/initial-data.js';
import { contract } from '../helpers/test-app.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

const checkPet = contract.checkSchema('Pet');

/**
 * sha256 of JSON.stringify(generatePets(42, 200)), computed with the faker version pinned by the
 * lockfile. If it changes, the same seed no longer gives the same data on every machine and run.
 */
const SEED_42_COUNT_200_SHA256 = 'f80ab9d21ee4a8419f37b401edc9e5d53af0ac0cf5df91eff90ddb915a31811b';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('generatePets(seed, count)', () => {
  it('gives byte-identical data for the same seed and count', () => {
    expect(JSON.stringify(generatePets(42, 200))).toBe(JSON.stringify(generatePets(42, 200)));
  });

  it('gives the same data when generations of other seeds run in between', () => {
    const first = JSON.stringify(generatePets(7, 50));
    const other = JSON.stringify(generatePets(8, 50));
    const again = JSON.stringify(generatePets(7, 50));
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('does not depend on the global faker being seeded or used', () => {
    const expected = JSON.stringify(generatePets(3, 40));
    faker.seed(123456);
    faker.animal.petName();
    faker.number.int();
    expect(JSON.stringify(generatePets(3, 40))).toBe(expected);
    faker.seed(999);
    expect(JSON.stringify(generatePets(3, 40))).toBe(expected);
  });

  it('does not seed or advance the global faker', () => {
    faker.seed(2024);
    const untouched = [faker.animal.petName(), faker.number.int()];
    faker.seed(2024);
    generatePets(42, 100);
    expect([faker.animal.petName(), faker.number.int()]).toEqual(untouched);
  });

  it('pins the data of seed 42, count 200 across machines (sha256)', () => {
    expect(sha256(JSON.stringify(generatePets(42, 200)))).toBe(SEED_42_COUNT_200_SHA256);
  });

  it('gives different data for different seeds', () => {
    expect(JSON.stringify(generatePets(1, 100))).not.toBe(JSON.stringify(generatePets(2, 100)));
  });

  it('gives no pets for count 0, and starts ids at 1', () => {
    expect(generatePets(5, 0)).toEqual({ nextId: 1, pets: [] });
  });

  it('gives exactly count pets with ids 1..count and the next id after them', () => {
    const data = generatePets(11, 37);
    expect(data.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
    expect(data.nextId).toBe(38);
  });

  it('generates only pets that pass the contract Pet schema', () => {
    const { pets } = generatePets(42, 200);
    const problems = pets.flatMap((pet) => checkPet(pet).map((p) => `${pet.id}: ${p}`));
    expect(problems).toEqual([]);
    for (const pet of pets) expect(pet.name.trim()).not.toBe('');
  });

  it('covers all three statuses in 100 pets', () => {
    const statuses = new Set(generatePets(42, 100).pets.map((pet) => pet.status));
    expect(statuses).toEqual(new Set(['available', 'pending', 'sold']));
  });
});

describe('loadFixtures', () => {
  it('loads the default fixtures: more than 20 valid pets covering every status', () => {
    const { pets, nextId } = loadFixtures(defaultFixturesPath, checkPet);
    expect(pets.length).toBeGreaterThan(20);
    expect(pets.flatMap((pet) => checkPet(pet))).toEqual([]);
    const statuses = new Set(pets.map((pet) => pet.status));
    for (const status of ['available', 'pending', 'sold']) expect(statuses).toContain(status);
    const ids = pets.map((pet) => Number(pet.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(nextId).toBe(Math.max(...ids) + 1);
  });

  describe('a bad fixture file', () => {
    let dir: string;

    beforeEach(() => {
      dir = makeTmpDir();
    });

    afterEach(() => {
      removeTmpDir(dir);
    });

    /** Three good pets with entry 2 replaced by `bad`. */
    function withBadEntry(bad: Record<string, unknown>): unknown[] {
      const good: Pet[] = [
        { id: 1, name: 'Bella', categoryId: 3, status: 'available' },
        { id: 2, name: 'Max', categoryId: 5, status: 'pending' },
        { id: 3, name: 'Luna', categoryId: 2, status: 'sold' },
      ];
      return [good[0], good[1], bad];
    }

    it.each([
      {
        what: 'categoryId a string',
        entry: { id: 3, name: 'Luna', categoryId: '2', status: 'sold' },
        field: 'categoryId',
      },
      { what: 'missing name', entry: { id: 3, categoryId: 2, status: 'sold' }, field: 'name' },
      {
        what: 'status not in the enum',
        entry: { id: 3, name: 'Luna', categoryId: 2, status: 'lost' },
        field: 'status',
      },
      {
        what: 'a duplicate id',
        entry: { id: 1, name: 'Luna', categoryId: 2, status: 'sold' },
        field: 'id',
      },
      {
        what: 'id 0',
        entry: { id: 0, name: 'Luna', categoryId: 2, status: 'sold' },
        field: 'id',
      },
      { what: 'missing id', entry: { name: 'Luna', categoryId: 2 }, field: 'id' },
    ])('with $what is refused, naming the file, entry 2 and the field', ({ entry, field }) => {
      const file = writeTmpFile(dir, 'pets.json', withBadEntry(entry));
      expect(() => loadFixtures(file, checkPet)).toThrow(file);
      expect(() => loadFixtures(file, checkPet)).toThrow('entry 2');
      expect(() => loadFixtures(file, checkPet)).toThrow(field);
    });

    it('that is not an array is refused, naming the file', () => {
      const file = writeTmpFile(dir, 'pets.json', { pets: withBadEntry({}) });
      expect(() => loadFixtures(file, checkPet)).toThrow(file);
    });

    it('that is not JSON is refused, naming the file', () => {
      const file = writeTmpFile(dir, 'pets.json', '[{"id": 1, "name": "Bella",');
      expect(() => loadFixtures(file, checkPet)).toThrow(file);
    });

    it('that does not exist is refused, naming the file', () => {
      const file = `${dir}/absent.json`;
      expect(() => loadFixtures(file, checkPet)).toThrow(file);
    });
  });
});
