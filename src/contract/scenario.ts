import { Refusal } from '../util/refusal.js';
import { quoteText } from '../util/quote-text.js';

/** The longest delay a scenario may set. */
export const MAX_DELAY_MS = 60_000;

/** Latency added before a rule's answer (or before the normal answer): fixed, or a range. */
export type Delay = { fixed: number } | { min: number; max: number };

/** Failures below HTTP: `reset` sends a TCP RST; `close` ends the connection with no answer. */
export type Fault = 'reset' | 'close';

/** One rule of a scenario: which operations it matches and what it does to them. */
export interface Rule {
  /** Names of the operations this rule matches (see Operation.name); `all` for every one. */
  readonly operations: readonly string[] | 'all';
  readonly delay?: Delay;
  readonly fault?: Fault;
  /** The share of matching requests the rule applies to (drawn from the seed); all without. */
  readonly chance?: number;
  /** A status the contract documents for every matched operation. */
  readonly status?: number;
  /** Error code and message of a forced error (defaults derive from the status). */
  readonly code?: string;
  readonly message?: string;
  /** Body of a forced success answer, e.g. `[]` for an empty list. */
  readonly body?: unknown;
}

/** A named set of rules; the first rule matching an operation applies to it. */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly rules: readonly Rule[];
  /** The file it came from, for messages. */
  readonly source: string;
}

/** The rule of a scenario that applies to an operation, if any. */
export function ruleFor(scenario: Scenario, operation: string): Rule | undefined {
  return scenario.rules.find(
    (rule) => rule.operations === 'all' || rule.operations.includes(operation),
  );
}

/** A scenario name the mock does not know; the message names the known ones. */
export class UnknownScenarioError extends Refusal {
  override name = 'UnknownScenarioError';

  constructor(message: string) {
    super(422, 'unknown_scenario', message);
  }
}

/**
 * The scenario of that name. An unknown name is refused the same way for a header, an admin
 * call, the library and --scenario (422 unknown_scenario over HTTP).
 */
export function scenarioNamed(scenarios: ReadonlyMap<string, Scenario>, name: string): Scenario {
  const scenario = scenarios.get(name);
  if (scenario) return scenario;
  throw new UnknownScenarioError(
    `The mock's control plane refused an unknown scenario ${quoteText(name)}; known: ${[...scenarios.keys()].join(', ')}.`,
  );
}
