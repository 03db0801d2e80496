import type { SchemaCheck } from '../contract/schema-validator.js';
import { generatePets, loadFixtures } from './initial-data.js';
import type { StoreData } from './store-data.js';

/** Where the initial pets come from: generated from a seed, or read from a fixture file. */
export type InitialDataSource =
  { kind: 'generated'; seed: number; count: number } | { kind: 'fixtures'; path: string };

/** Builds the initial data of a store from its source, checking fixtures against the contract. */
export function loadInitialData(source: InitialDataSource, checkPet: SchemaCheck): StoreData {
  return source.kind === 'generated'
    ? generatePets(source.seed, source.count)
    : loadFixtures(source.path, checkPet);
}
