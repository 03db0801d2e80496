import { CoverageTally } from './coverage-tally.js';
import { ScenarioSwitch } from './scenario-switch.js';
import { createMemoryStore } from './open-store.js';
import type { PetStore } from './pet-store.js';
import type { StoreBudget } from './store-budget.js';
import type { StoreSnapshot } from './store-data.js';
import { ItemStore } from './item-store.js';
import { Journal } from './request-journal.js';
import type { Session } from './session.js';

export interface SessionOptions {
  initial: StoreSnapshot;
  journalSize: number;
  /** Bytes its journal may keep (its share of --journal-bytes); unbounded if absent. */
  journalShare?: number | undefined;
  /** The scenario on at the start and after each reset, by name. */
  startupScenario?: string | undefined;
  /** What the stores of all sessions may add together. */
  budget?: StoreBudget | undefined;
}

/** Builds a session around a given store (the default session's may be file-backed). */
export function createSession(
  id: string | undefined,
  store: PetStore,
  options: SessionOptions,
): Session {
  return {
    id,
    store,
    items: new ItemStore(options.budget),
    scenarios: new ScenarioSwitch(options.startupScenario),
    journal: new Journal(options.journalSize, options.journalShare),
    coverage: new CoverageTally(),
  };
}

/** A factory of named sessions: each starts in memory from the initial data. */
export function createSessionFactory(options: SessionOptions): (id: string) => Session {
  return (id) => createSession(id, createMemoryStore(options.initial, options.budget), options);
}
