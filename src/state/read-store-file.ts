import { readFile } from 'node:fs/promises';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { isInt64, nextInt64 } from '../util/int64.js';
import { parseJson } from '../util/json-codec.js';
import { checkPets } from './check-pets.js';
import { digestOf, journalEntriesFor, journalPathOf } from './journal-format.js';
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

/** Appends the pets of a journal to the data of the file version it extends. */
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

/** A journal that does not extend the store file as it is (another version, or no file at all). */
export interface StaleJournal {
  /** Its pet lines (after the header line), which the file may or may not hold too. */
  readonly pets: number;
}

/** A store file as read: its data (null for no file), and a journal beside it that is stale. */
export interface StoreFileContent {
  readonly data: StoreData | null;
  readonly staleJournal: StaleJournal | null;
}

function staleJournalOf(bytes: Buffer): StaleJournal {
  const lines = bytes.toString('utf8').split('\n').slice(1);
  return { pets: lines.filter((line) => line.trim() !== '').length };
}

/**
 * Reads and checks a store file, with the pets of its journal when the journal extends this
 * version of the file (the digest in its header matches); says when a journal is stale instead.
 */
export async function readStoreFileContent(
  path: string,
  checkPet: SchemaCheck,
): Promise<StoreFileContent> {
  const journalPath = journalPathOf(path);
  const [bytes, journalBytes] = await Promise.all([
    readIfExists(path, 'store file'),
    readIfExists(journalPath, 'store journal'),
  ]);
  if (bytes === null) {
    return { data: null, staleJournal: journalBytes && staleJournalOf(journalBytes) };
  }
  const data = parseStoreFile(bytes, path, checkPet);
  if (journalBytes === null) return { data, staleJournal: null };
  // A journal of another version: the file was written whole after it (then a crash came before
  // the journal was deleted), or replaced by hand. Either way the file holds what counts.
  const entries = journalEntriesFor(journalBytes.toString('utf8'), journalPath, digestOf([bytes]));
  if (entries === null) return { data, staleJournal: staleJournalOf(journalBytes) };
  addJournal(data, entries, journalPath, checkPet);
  return { data, staleJournal: null };
}

/** The data of a store file with its journal (see readStoreFileContent); null for no file. */
export async function readStoreFile(
  path: string,
  checkPet: SchemaCheck,
): Promise<StoreData | null> {
  return (await readStoreFileContent(path, checkPet)).data;
}
