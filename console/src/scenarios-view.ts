import type { ActiveScenario, ScenarioSummary } from './admin-client.js';
import { byId, h } from './dom.js';

/** What the scenario controls ask for; the page makes the call and reports the outcome. */
export interface ScenarioActions {
  activate(name: string, times?: number): void;
  deactivate(): void;
}

/** A scenario's operations in words. */
function operationsText({ operations, everyOperation }: ScenarioSummary): string {
  if (everyOperation) return 'every operation';
  return operations.length === 0 ? 'none of this contract' : operations.join(', ');
}

/** A line for an active scenario: its name and how long it stays on. */
export function activeText(active: ActiveScenario | null): string {
  if (!active) return 'No scenario is on.';
  const left =
    active.remaining === null
      ? 'until switched off'
      : `for ${String(active.remaining)} more matching ${active.remaining === 1 ? 'request' : 'requests'}`;
  return `On: ${active.name}, ${left}.`;
}

/**
 * The scenario list with its controls. The cards are built once per list of names, so a poll
 * never takes away what is typed in a number field or where the focus is.
 */
export class ScenariosView {
  readonly #list = byId('scenarios', HTMLUListElement);
  readonly #active = byId('active-scenario', HTMLParagraphElement);
  readonly #off = byId('deactivate', HTMLButtonElement);
  readonly #cards = new Map<string, HTMLLIElement>();
  readonly #actions: ScenarioActions;
  #names = '';

  constructor(actions: ScenarioActions) {
    this.#actions = actions;
    this.#off.addEventListener('click', () => {
      actions.deactivate();
    });
  }

  show(scenarios: readonly ScenarioSummary[], active: ActiveScenario | null): void {
    const names = JSON.stringify(scenarios.map((scenario) => scenario.name));
    if (names !== this.#names) {
      this.#names = names;
      this.#cards.clear();
      this.#list.replaceChildren(...scenarios.map((scenario, i) => this.#card(scenario, i)));
    }
    this.#active.textContent = activeText(active);
    this.#off.disabled = active === null;
    this.#off.setAttribute('aria-label', active ? `Switch off ${active.name}` : 'Switch off');
    for (const [name, card] of this.#cards) card.classList.toggle('on', active?.name === name);
  }

  #card(scenario: ScenarioSummary, index: number): HTMLLIElement {
    const { name } = scenario;
    const timesId = `times-${String(index)}`;
    const times = h('input', {
      id: timesId,
      type: 'number',
      min: '1',
      max: '1000000',
      step: '1',
      value: '1',
      inputmode: 'numeric',
      'aria-label': `Number of requests for ${name}`,
    });
    const on = h('button', { type: 'button', 'aria-label': `Activate ${name}` }, 'Switch on');
    const forNext = h(
      'button',
      { type: 'button', 'aria-label': `Activate ${name} for the next N requests` },
      'On for next N',
    );
    on.addEventListener('click', () => {
      this.#actions.activate(name);
    });
    forNext.addEventListener('click', () => {
      if (!times.reportValidity()) return;
      this.#actions.activate(name, times.valueAsNumber);
    });
    const card = h(
      'li',
      { class: 'scenario' },
      h('h3', {}, name),
      h('p', {}, scenario.description),
      h('p', { class: 'hint' }, `Operations: ${operationsText(scenario)}`),
      h('div', { class: 'row' }, on, h('label', { for: timesId }, 'N'), times, forNext),
    );
    this.#cards.set(name, card);
    return card;
  }
}
