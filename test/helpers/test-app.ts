import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { Express } from 'express';
import { createApp, type AppDeps } from '../../src/api/app.js';
import { loadContract, type Contract } from '../../src/contract/load-contract.js';
import {
  adminContractPath,
  defaultContractPath,
  defaultFixturesPath,
  defaultScenariosDir,
} from '../../src/util/paths.js';
import type { Pet } from '../../src/state/pet.js';
import { loadScenarios } from '../../src/contract/load-scenarios.js';
import type { Scenario } from '../../src/contract/scenario.js';
import { createSession, createSessionFactory } from '../../src/state/create-session.js';
import { SessionRegistry } from '../../src/state/session-registry.js';
import { loadFixtures } from '../../src/state/initial-data.js';
import { openPetStore } from '../../src/state/open-store.js';
import type { PetStore } from '../../src/state/pet-store.js';
import { storeDataFrom } from '../../src/state/store-data.js';

/** The contract, loaded once per test file. */
export const contract: Contract = loadContract(defaultContractPath);

/** The admin API's document. */
export const adminContract: Contract = loadContract(adminContractPath);

/** The scenarios shipped in scenarios/. */
export const shippedScenarios: ReadonlyMap<string, Scenario> = loadScenarios(
  defaultScenariosDir,
  contract,
);

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
  /** The default session's store. */
  store: PetStore;
  sessions: SessionRegistry;
  logs: Record<string, unknown>[];
}

export type TestAppOptions = Partial<Omit<AppDeps, 'adminContract' | 'logger' | 'sessions'>> & {
  /** Initial pets; the default fixtures when absent. */
  pets?: readonly Pet[];
  /** A store of the test's own for the default session, instead of a fresh in-memory one. */
  store?: PetStore;
  maxSessions?: number;
  journalSize?: number;
  /** A scenario switched on from the start, by name. */
  startupScenario?: string;
  /** The admin document, instead of the shipped one. */
  adminContract?: Contract;
};

/** A fresh app over its own in-memory store: each test owns its data. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { pets, store: given, maxSessions, journalSize, startupScenario, ...rest } = options;
  const deps = { adminContract, ...rest };
  const scenarios = deps.scenarios ?? shippedScenarios;
  const initial = storeDataFrom([...(pets ?? fixturePets)].map((pet) => ({ ...pet })));
  const store =
    given ??
    (await openPetStore({ initial, checkPet: (deps.contract ?? contract).checkSchema('Pet') }));
  const sessionOptions = {
    initial,
    seed: 1,
    journalSize: journalSize ?? 100,
    startupScenario: startupScenario === undefined ? undefined : scenarios.get(startupScenario),
  };
  const sessions = new SessionRegistry(
    createSession(undefined, store, sessionOptions),
    createSessionFactory(sessionOptions),
    maxSessions ?? 10,
  );
  const { logger, lines } = captureLogger();
  const app = createApp({ contract, sessions, scenarios, logger, ...deps });
  return { app, store, sessions, logs: lines };
}

/** The Authorization header of an accepted request. */
export const AUTH = { Authorization: 'Bearer test-key' } as const;
