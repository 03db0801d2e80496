import type { SchemaCheck } from '../contract/schema-validator.js';
import { loadFixtures } from './initial-data.js';
import type { StoreData } from './store-data.js';

/** Where the initial pets come from: generated from a seed, or read from a fixture file. */
export type InitialDataSource =
  { kind: 'generated'; seed: number; count: number } | { kind: 'fixtures'; path: string };

/** Builds the initial data of a store from its source, checking fixtures against the contract. */
export async function loadInitialData(
  source: InitialDataSource,
  checkPet: SchemaCheck,
): Promise<StoreData> {
  if (source.kind === 'fixtures') return loadFixtures(source.path, checkPet);
  // faker (~0.4 s and ~30 MiB to load) only when pets are generated.
  const { generatePets } = await import('./generate-pets.js');
  return generatePets(source.seed, source.count);
}
