import type { CoverageTally } from './coverage-tally.js';
import type { Random } from '../util/random.js';
import type { ScenarioSwitch } from './scenario-switch.js';
import type { PetStore } from './pet-store.js';
import type { Journal } from './request-journal.js';

/** One isolated mock: its own pets, its own active scenario, its own journal. */
export interface Session {
  /** The X-Mock-Session value; undefined for the shared default session. */
  readonly id: string | undefined;
  readonly store: PetStore;
  readonly scenarios: ScenarioSwitch;
  readonly journal: Journal;
  /** What its requests were answered; a reset keeps it (the registry's holds the whole suite's). */
  readonly coverage: CoverageTally;
  /** Draws the delays of scenario ranges; seeded, so runs repeat. */
  readonly random: Random;
}

/**
 * Back to the start: initial pets and id counter, start-up scenario, empty journal. Coverage is
 * kept: tests reset between cases, and it reports what all of them exercised.
 */
export async function resetSession(session: Session): Promise<void> {
  await session.store.reset();
  session.scenarios.reset();
  session.journal.clear();
}
