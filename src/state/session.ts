import type { CoverageTally } from './coverage-tally.js';
import type { ItemStore } from './item-store.js';
import type { PetStore } from './pet-store.js';
import type { Journal } from './request-journal.js';
import type { ScenarioSwitch } from './scenario-switch.js';

/** One isolated mock in this process: its own pets, its own scenario switch, its own journal. */
export interface Session {
  /** The X-Mock-Session value; undefined for the shared default session. */
  readonly id: string | undefined;
  readonly store: PetStore;
  /** Its items of the contract's other resources, always in memory. */
  readonly items: ItemStore;
  readonly scenarios: ScenarioSwitch;
  readonly journal: Journal;
  /** What its requests were answered; a reset keeps it (the registry's holds the whole suite's). */
  readonly coverage: CoverageTally;
}

/**
 * Back to the start: initial pets and id counter, seeded items, start-up scenario, empty journal.
 * Coverage is kept: tests reset between cases, and it reports what all of them exercised.
 */
export async function resetSession(session: Session): Promise<void> {
  await session.store.reset();
  session.items.reset();
  session.scenarios.reset();
  session.journal.clear();
}
