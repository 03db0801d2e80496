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
import { LocalState } from '../../src/state/local-state.js';
import type { MockState } from '../../src/state/mock-state.js';
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
  /** Everything the app remembers (the default session's store is `store`). */
  state: MockState;
  logs: Record<string, unknown>[];
}

export type TestAppOptions = Partial<Omit<AppDeps, 'adminContract' | 'logger' | 'state'>> & {
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
  const state = new LocalState({
    kind: 'memory',
    defaultStore: store,
    initial,
    maxSessions: maxSessions ?? 10,
    journalSize: journalSize ?? 100,
    startupScenario,
  });
  const { logger, lines } = captureLogger();
  const app = createApp({ contract, state, scenarios, logger, ...deps });
  return { app, store, state, logs: lines };
}

/** The Authorization header of an accepted request. */
export const AUTH = { Authorization: 'Bearer test-key' } as const;

/** Whether a named session is live, without touching its recency (a read). */
export async function isLive(state: MockState, id: string): Promise<boolean> {
  return (await state.sessions()).some((session) => session.id === id);
}

/** How many named sessions are live (the default one is not counted). */
export async function liveCount(state: MockState): Promise<number> {
  return (await state.sessions()).filter((session) => session.id !== null).length;
}
