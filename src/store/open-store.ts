import { readFile } from 'node:fs/promises';
import { Low, Memory } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { isRecord } from '../contract/openapi-document.js';
import { errorMessage } from '../error-message.js';
import { isInt64 } from '../json/int64.js';
import { parseJson } from '../json/json-codec.js';
import { checkPets } from './check-pets.js';
import { PetStore } from './pet-store.js';
import { createStoreStringify } from './store-file-format.js';
import { copyStoreData, storeDataFrom, type StoreData } from './store-data.js';

export interface OpenStoreOptions {
  /** Initial data: what a new store starts from and what reset restores. */
  initial: StoreData;
  /** A JSON file that keeps the store across restarts; in memory when absent. */
  dbPath?: string | undefined;
  checkPet: SchemaCheck;
}

async function readStoreFile(path: string, checkPet: SchemaCheck): Promise<StoreData | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isRecord(error) && error.code === 'ENOENT') return null;
    throw new Error(`cannot read the store file ${path}: ${errorMessage(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new Error(`the store file ${path} is not JSON: ${errorMessage(error)}`);
  }
  if (!isRecord(parsed)) throw new Error(`${path}: expected an object with "pets" and "nextId"`);
  const data = storeDataFrom(checkPets(parsed.pets, `${path} pets`, checkPet));
  // A counter stored ahead of the pets (pets created then lost) is kept, so ids are never reused.
  if (isInt64(parsed.nextId) && parsed.nextId > data.nextId) data.nextId = parsed.nextId;
  return data;
}

/** Opens a pet store: in memory, or in a JSON file whose existing content wins over `initial`. */
export async function openPetStore({
  initial,
  dbPath,
  checkPet,
}: OpenStoreOptions): Promise<PetStore> {
  if (dbPath === undefined) {
    return new PetStore(new Low(new Memory<StoreData>(), copyStoreData(initial)), initial);
  }
  const stored = await readStoreFile(dbPath, checkPet);
  const adapter = new DataFile<StoreData>(dbPath, {
    // Never called to read (readStoreFile does, with checks); writes keep int64 digits.
    parse: () => {
      throw new Error('the store file is read by readStoreFile');
    },
    stringify: createStoreStringify(),
  });
  const db = new Low(adapter, stored ?? copyStoreData(initial));
  // Written at once, so a new file exists (and a bad path fails) before the server answers.
  try {
    await db.write();
  } catch (error) {
    throw new Error(`cannot write the store file ${dbPath}: ${errorMessage(error)}`);
  }
  return new PetStore(db, initial);
}
