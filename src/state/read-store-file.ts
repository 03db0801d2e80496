import { readFile } from 'node:fs/promises';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { isInt64, nextInt64 } from '../util/int64.js';
import { parseJson } from '../util/json-codec.js';
import { checkPets } from './check-pets.js';
import { digestOf, appendLogEntriesFor, appendLogPathOf } from './append-log-format.js';
import { storeDataFrom, type StoreData } from './store-data.js';
import { isMissingFile } from '../util/is-missing-file.js';

/** A file's bytes; null when it does not exist. */
async function readIfExists(path: string, what: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw new Error(`cannot read the ${what} ${path}: ${errorMessage(error)}`);
  }
}

function parseStoreFile(bytes: Buffer, path: string, checkPet: SchemaCheck): StoreData {
  let parsed: unknown;
  try {
    parsed = parseJson(bytes.toString('utf8'));
  } catch (error) {
    throw new Error(`the store file ${path} is not JSON: ${errorMessage(error)}`);
  }
  if (!isRecord(parsed)) throw new Error(`${path}: expected an object with "pets" and "nextId"`);
  const data = storeDataFrom(checkPets(parsed.pets, `${path} pets`, checkPet));
  // A counter stored ahead of the pets (pets created then lost) is kept, so ids are never reused.
  if (isInt64(parsed.nextId) && parsed.nextId > data.nextId) data.nextId = parsed.nextId;
  return data;
}

/** Appends the pets of an append log to the data of the file version it extends. */
function addJournal(data: StoreData, entries: unknown[], path: string, checkPet: SchemaCheck) {
  const pets = checkPets(entries, path, checkPet);
  let last = data.pets.at(-1)?.id;
  for (const [index, pet] of pets.entries()) {
    if (last !== undefined && pet.id <= last) {
      throw new Error(
        `${path}: line ${index + 2}: id ${String(pet.id)} is not after the ids before`,
      );
    }
    last = pet.id;
    data.pets.push(pet);
  }
  if (last !== undefined && nextInt64(last) > data.nextId) data.nextId = nextInt64(last);
}

/** An append log that does not extend the store file as it is (another version, or no file at all). */
export interface StaleAppendLog {
  /** Its pet lines (after the header line), which the file may or may not hold too. */
  readonly pets: number;
}

/** A store file as read: its data (null for no file), and an append log beside it that is stale. */
export interface StoreFileContent {
  readonly data: StoreData | null;
  readonly staleAppendLog: StaleAppendLog | null;
}

function staleAppendLogOf(bytes: Buffer): StaleAppendLog {
  const lines = bytes.toString('utf8').split('\n').slice(1);
  return { pets: lines.filter((line) => line.trim() !== '').length };
}

/**
 * Reads and checks a store file, with the pets of its append log when the append log extends this
 * version of the file (the digest in its header matches); says when an append log is stale instead.
 */
export async function readStoreFileContent(
  path: string,
  checkPet: SchemaCheck,
): Promise<StoreFileContent> {
  const appendLogPath = appendLogPathOf(path);
  const [bytes, appendLogBytes] = await Promise.all([
    readIfExists(path, 'store file'),
    readIfExists(appendLogPath, 'store append log'),
  ]);
  if (bytes === null) {
    return { data: null, staleAppendLog: appendLogBytes && staleAppendLogOf(appendLogBytes) };
  }
  const data = parseStoreFile(bytes, path, checkPet);
  if (appendLogBytes === null) return { data, staleAppendLog: null };
  // An append log of another version: the file was written whole after it (then a crash came before
  // the append log was deleted), or replaced by hand. Either way the file holds what counts.
  const entries = appendLogEntriesFor(
    appendLogBytes.toString('utf8'),
    appendLogPath,
    digestOf([bytes]),
  );
  if (entries === null) return { data, staleAppendLog: staleAppendLogOf(appendLogBytes) };
  addJournal(data, entries, appendLogPath, checkPet);
  return { data, staleAppendLog: null };
}

/** The data of a store file with its append log (see readStoreFileContent); null for no file. */
export async function readStoreFile(
  path: string,
  checkPet: SchemaCheck,
): Promise<StoreData | null> {
  return (await readStoreFileContent(path, checkPet)).data;
}
