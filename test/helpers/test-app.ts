import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { Express } from 'express';
import { createApp, type AppDeps } from '../../src/app.js';
import { loadContract, type Contract } from '../../src/contract/load-contract.js';
import { defaultContractPath, defaultFixturesPath } from '../../src/paths.js';
import type { Pet } from '../../src/pets/pet.js';
import { loadFixtures } from '../../src/store/initial-data.js';
import { openPetStore } from '../../src/store/open-store.js';
import type { PetStore } from '../../src/store/pet-store.js';
import { storeDataFrom } from '../../src/store/store-data.js';

/** The contract, loaded once per test file. */
export const contract: Contract = loadContract(defaultContractPath);

/** The default fixtures, as the store starts from them. */
export const fixturePets: readonly Pet[] = loadFixtures(
  defaultFixturesPath,
  contract.checkSchema('Pet'),
).pets;

/** A pino logger whose lines are kept, parsed, for assertions. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

export interface TestApp {
  app: Express;
  store: PetStore;
  logs: Record<string, unknown>[];
}

export type TestAppOptions = Partial<Omit<AppDeps, 'contract' | 'logger' | 'store'>> & {
  /** Initial pets; the default fixtures when absent. */
  pets?: readonly Pet[];
  /** A store of the test's own, instead of a fresh in-memory one. */
  store?: PetStore;
};

/** A fresh app over its own in-memory store: each test owns its data. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { pets, store: given, ...deps } = options;
  const store =
    given ??
    (await openPetStore({
      initial: storeDataFrom([...(pets ?? fixturePets)].map((pet) => ({ ...pet }))),
      checkPet: contract.checkSchema('Pet'),
    }));
  const { logger, lines } = captureLogger();
  return { app: createApp({ contract, store, logger, ...deps }), store, logs: lines };
}

/** The Authorization header of an accepted request. */
export const AUTH = { Authorization: 'Bearer test-key' } as const;
