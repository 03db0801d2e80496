import { ruleFor, type Rule, type Scenario } from '../contract/scenario.js';

/** What is switched on: a scenario, for the next `remaining` matching requests or until off. */
export interface Activation {
  readonly scenario: Scenario;
  readonly remaining: number | undefined;
}

/** The scenario switched on for one session: set by the admin API or at start-up. */
export class ScenarioSwitch {
  readonly #initial: Activation | undefined;
  #active: Activation | undefined;

  /** `initial` is what a reset returns to (the --scenario given at start, if any). */
  constructor(initial?: Scenario) {
    this.#initial = initial && { scenario: initial, remaining: undefined };
    this.#active = this.#initial;
  }

  get active(): Activation | undefined {
    return this.#active;
  }

  /** Switches a scenario on, for the next `times` matching requests if given. */
  activate(scenario: Scenario, times?: number): void {
    this.#active = { scenario, remaining: times };
  }

  deactivate(): void {
    this.#active = undefined;
  }

  reset(): void {
    this.#active = this.#initial;
  }

  /** The active rule for an operation; a match counts against `times`. */
  take(operationId: string): { scenario: Scenario; rule: Rule } | undefined {
    const active = this.#active;
    if (!active) return undefined;
    const rule = ruleFor(active.scenario, operationId);
    if (!rule) return undefined;
    if (active.remaining !== undefined) {
      const remaining = active.remaining - 1;
      this.#active = remaining > 0 ? { scenario: active.scenario, remaining } : undefined;
    }
    return { scenario: active.scenario, rule };
  }
}
