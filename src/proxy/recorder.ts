import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { compareInt64, type Int64 } from '../util/int64.js';
import { stringifyJson } from '../util/json-codec.js';
import { checkPets } from '../state/check-pets.js';
import { createCoalescedWrite } from '../util/coalesced-write.js';
import { loadFixtures } from '../state/initial-data.js';
import type { Pet } from '../state/pet.js';
import { writeFileAtomically } from '../util/write-file-atomically.js';
import { errorMessage } from '../util/error-message.js';

/** Keeps the pets seen in the real service's valid answers as a fixtures file (--record). */
export interface Recorder {
  /** Keeps the pets of a valid 2xx answer: a Pet, or a list of them. */
  add(body: unknown): void;
  /** Resolves once everything kept is in the file. */
  close(): Promise<void>;
}

/** The file is rewritten whole on every change: a bound on its size, and on memory. */
export const MAX_RECORDED_PETS = 10_000;

/** One pet a line, ascending id: the format --fixtures reads, and readable in a diff. */
function fixturesText(pets: Iterable<Pet>): string {
  const sorted = [...pets].sort((a, b) => compareInt64(a.id, b.id));
  const lines = sorted.map((pet) => `  ${stringifyJson(pet)}`);
  return lines.length === 0 ? '[]\n' : `[\n${lines.join(',\n')}\n]\n`;
}

/** The pet a candidate is, checked exactly as --fixtures will check it; undefined if it is not one. */
function petOf(candidate: unknown, path: string, checkPet: SchemaCheck): Pet | undefined {
  try {
    return checkPets([candidate], path, checkPet)[0];
  } catch {
    return undefined;
  }
}

/**
 * Opens a fixtures file to record into. An existing file must be one --fixtures accepts (its pets
 * are kept, so runs add up); anything else is refused rather than overwritten. The file is written
 * at once, so a path that cannot be written stops the start.
 */
export async function openRecorder(
  path: string,
  checkPet: SchemaCheck,
  logger: Logger,
): Promise<Recorder> {
  const pets = new Map<Int64, Pet>();
  if (existsSync(path)) {
    try {
      for (const pet of loadFixtures(path, checkPet).pets) pets.set(pet.id, pet);
    } catch (error) {
      throw new Error(
        `--record: ${errorMessage(error)} (a file that is not fixtures is not overwritten)`,
      );
    }
  }
  const write = createCoalescedWrite(() =>
    writeFileAtomically(path, [Buffer.from(fixturesText(pets.values()))]),
  );
  try {
    await write();
  } catch (error) {
    throw new Error(`--record: cannot write ${path}: ${errorMessage(error)}`);
  }
  let pending: Promise<void> = Promise.resolve();
  let full = false;

  const save = (): void => {
    pending = write().catch((error: unknown) => {
      logger.error({ err: error, path }, '--record: cannot write the fixtures file');
    });
  };

  return {
    add: (body) => {
      let changed = false;
      for (const candidate of Array.isArray(body) ? body : [body]) {
        const pet = petOf(candidate, path, checkPet);
        if (!pet) continue;
        const known = pets.get(pet.id);
        if (known === undefined && pets.size >= MAX_RECORDED_PETS) {
          if (!full) logger.warn({ path, max: MAX_RECORDED_PETS }, '--record: the file is full');
          full = true;
          continue;
        }
        if (known !== undefined && stringifyJson(known) === stringifyJson(pet)) continue;
        pets.set(pet.id, pet);
        changed = true;
      }
      if (changed) save();
    },
    close: () => pending,
  };
}
