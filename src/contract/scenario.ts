import { Refusal } from '../util/refusal.js';
import { quoteText } from '../util/quote-text.js';
import type { KindFields } from './rule-kinds/all-kinds.js';

export { MAX_DELAY_MS } from './rule-kinds/delay.js';

/** One rule of a scenario: which requests it matches, and what each of its kinds does to them. */
export type Rule = {
  /** Names of the operations this rule matches (see Operation.name); `all` for every one. */
  readonly operations: readonly string[] | 'all';
  /** The share of matching requests the rule applies to (drawn from the seed); all without. */
  readonly chance?: number;
} & KindFields;

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
