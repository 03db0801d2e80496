import { Writable } from 'node:stream';
import { Low, Memory } from 'lowdb';
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
import { PetStore } from '../../src/state/pet-store.js';
import { RedisState } from '../../src/state/redis-state.js';
import { StoreBudget } from '../../src/state/store-budget.js';
import { storeDataFrom, type StoreData } from '../../src/state/store-data.js';
import { freshPrefix, testBackend, testRedisUrl, TEST_STATE_TIMEOUT_MS } from './state-backend.js';

/** The contract, loaded once per test file. */
export const contract: Contract = loadContract(defaultContractPath);

/** The admin API's document. */
export const adminContract: Contract = loadContract(adminContractPath);

/** The scenarios shipped in scenarios/. */
export const shippedScenarios: ReadonlyMap<string, Scenario> = loadScenarios(
  defaultScenariosDir,
  contract,
  { builtIn: true },
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
  /** Everything the app remembers, on this file's backend (test/helpers/state-backend.ts). */
  state: MockState;
  logs: Record<string, unknown>[];
}

export type TestAppOptions = Partial<Omit<AppDeps, 'adminContract' | 'logger' | 'state'>> & {
  /** Initial pets; the default fixtures when absent. */
  pets?: readonly Pet[];
  /**
   * Initial pets taken as they are, unchecked: how a bug in the mock would hand out a pet that
   * breaks the contract (response validation must stop it).
   */
  uncheckedPets?: readonly Pet[];
  maxSessions?: number;
  journalSize?: number;
  /** A scenario switched on from the start, by name. */
  startupScenario?: string;
  /** The admin document, instead of the shipped one. */
  adminContract?: Contract;
};

/** What a test's state starts from and is bounded by; each has a default. */
export interface TestStateOptions {
  /** Initial data; the default fixtures when absent. */
  initial?: StoreData;
  /** Take the initial data unchecked (memory: a lowdb over it, past openPetStore's checks). */
  unchecked?: boolean;
  /** Default 10. */
  maxSessions?: number;
  /** Default 100. */
  journalSize?: number;
  /** Bytes a session's journal may keep (its share of journalBytes); as good as unbounded when absent. */
  journalShare?: number;
  /** The budgets; unbounded in memory when absent, the settings' defaults on Redis. */
  maxPets?: number;
  maxStoreBytes?: number;
  /** Redis only (memory keeps sessions until the LRU bound): default an hour. */
  sessionTtl?: number;
  startupScenario?: string | undefined;
}

/** On Redis a bound must be a number: these stand for "unbounded" and the settings' defaults. */
const JOURNAL_SHARE = 2 ** 40;
const MAX_PETS = 100_000;
const MAX_STORE_BYTES = 256 * 1024 * 1024;

/** The states this file opened on Redis, each closed after the file (no handle left open). */
const opened: MockState[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((state) => state.close()));
});

/**
 * A fresh state on this file's backend (test/helpers/state-backend.ts): in memory, or on the run's
 * Redis under a prefix of its own, closed after the file.
 */
export async function openTestState(options: TestStateOptions = {}): Promise<MockState> {
  const initial = options.initial ?? storeDataFrom(fixturePets.map((pet) => ({ ...pet })));
  const maxSessions = options.maxSessions ?? 10;
  const journalSize = options.journalSize ?? 100;
  const { journalShare, maxPets, maxStoreBytes, startupScenario } = options;
  // The settings' journalBytes is every session's together, the default session's included.
  const journalBytes = (journalShare ?? JOURNAL_SHARE) * (maxSessions + 1);
  if (testBackend === 'redis') {
    const state = await RedisState.connect({
      settings: {
        stateUrl: testRedisUrl(),
        statePrefix: freshPrefix(),
        stateTimeout: TEST_STATE_TIMEOUT_MS,
        sessionTtl: options.sessionTtl ?? 3_600_000,
        maxSessions,
        maxPets: maxPets ?? MAX_PETS,
        maxStoreBytes: maxStoreBytes ?? MAX_STORE_BYTES,
        journalSize,
        journalBytes,
      },
      initial,
      startupScenario,
      identity: {},
    });
    opened.push(state);
    return state;
  }
  const budget = new StoreBudget({
    maxPets: maxPets ?? Number.POSITIVE_INFINITY,
    maxStoreBytes: maxStoreBytes ?? Number.POSITIVE_INFINITY,
  });
  const store =
    options.unchecked === true
      ? new PetStore(new Low(new Memory<StoreData>(), initial), initial, { budget })
      : await openPetStore({ initial, checkPet: contract.checkSchema('Pet'), budget });
  return new LocalState({
    kind: 'memory',
    defaultStore: store,
    initial,
    budget,
    settings: { maxSessions, journalSize, journalBytes },
    startupScenario,
  });
}

/** A fresh app over its own state, on this file's backend: each test owns its data. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { pets, uncheckedPets, maxSessions, journalSize, startupScenario, ...rest } = options;
  const deps = { adminContract, ...rest };
  const scenarios = deps.scenarios ?? shippedScenarios;
  const initial: StoreData =
    uncheckedPets === undefined
      ? storeDataFrom([...(pets ?? fixturePets)].map((pet) => ({ ...pet })))
      : { nextId: uncheckedPets.length + 1, pets: [...uncheckedPets] };
  const state = await openTestState({
    initial,
    unchecked: uncheckedPets !== undefined,
    maxSessions,
    journalSize,
    startupScenario,
  });
  const { logger, lines } = captureLogger();
  const app = createApp({ contract, state, scenarios, logger, ...deps });
  return { app, state, logs: lines };
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
