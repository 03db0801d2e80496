import type { ActiveScenario } from './mock-state.js';

/** The scenario switched on for one session, by name: set by the admin API or at start-up. */
export class ScenarioSwitch {
  readonly #initial: ActiveScenario | null;
  #active: ActiveScenario | null;

  /** `initial` is what a reset returns to (the --scenario given at start, if any). */
  constructor(initial: string | undefined) {
    this.#initial = initial === undefined ? null : { name: initial, remaining: null };
    this.#active = this.#initial;
  }

  get active(): ActiveScenario | null {
    return this.#active;
  }

  /** Switches a scenario on, for the next `times` matching requests if given. */
  activate(name: string, times?: number): void {
    this.#active = { name, remaining: times ?? null };
  }

  deactivate(): void {
    this.#active = null;
  }

  reset(): void {
    this.#active = this.#initial;
  }

  /**
   * The active scenario's name if it is one of `matching` (those with a rule for the request's
   * operation); a match counts against its remaining requests.
   */
  take(matching: readonly string[]): string | undefined {
    const active = this.#active;
    if (!active || !matching.includes(active.name)) return undefined;
    if (active.remaining !== null) {
      const remaining = active.remaining - 1;
      this.#active = remaining > 0 ? { name: active.name, remaining } : null;
    }
    return active.name;
  }
}
