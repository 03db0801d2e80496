import type { ResourceList, ResourceSummary, StatelessOperation } from './admin-client.js';
import { byId, h } from './dom.js';

/** Items of the chosen resource shown; the others are counted. */
const ITEMS_SHOWN = 20;

/** The chosen resource's items, as the page read them for the session shown. */
export interface ChosenItems {
  readonly name: string;
  readonly items: readonly Record<string, unknown>[];
}

/** The key in words: `id (integer, int64)`, `username (string, given by the client)`. */
function keyText({ key }: ResourceSummary): string {
  const about = key.format === null ? [key.kind] : [key.kind, key.format];
  if (key.fromClient === 'required') about.push('given by the client');
  if (key.fromClient === 'optional') about.push('the client may give it');
  return `${key.property} (${about.join(', ')})`;
}

/** The query parameters its list filters by, in a line; empty when none. */
function filtersText(resource: ResourceSummary): string {
  const filters = resource.operations.flatMap((op) => op.filters);
  return filters.length === 0 ? '' : `Filters: ${filters.join(', ')}`;
}

/**
 * The contract's resources as a table, a chosen one's items in the session, and the operations
 * left stateless. Rows are built once per list of resources and their counts updated in place,
 * so a poll never takes the focus from a button.
 */
export class ResourcesView {
  readonly #summary = byId('resources-summary', HTMLParagraphElement);
  readonly #table = byId('resources-table', HTMLDivElement);
  readonly #rows = byId('resource-rows', HTMLTableSectionElement);
  readonly #items = byId('resource-items', HTMLDivElement);
  readonly #stateless = byId('stateless', HTMLDetailsElement);
  readonly #statelessSummary = byId('stateless-summary', HTMLElement);
  readonly #statelessList = byId('stateless-list', HTMLUListElement);
  readonly #counts = new Map<string, HTMLTableCellElement>();
  readonly #buttons = new Map<string, HTMLButtonElement>();
  /** Asks the page for the chosen resource's items at once. */
  readonly #onChoose: () => void;
  #chosen: string | undefined;
  #shownRows = '';
  #shownItems = '';
  #shownStateless = '';

  constructor(onChoose: () => void) {
    this.#onChoose = onChoose;
  }

  /** The top-level resource whose items to read, if one is chosen and still listed. */
  chosenIn(list: ResourceList): string | undefined {
    const listed = list.resources.some((r) => r.name === this.#chosen && r.parent === null);
    return listed ? this.#chosen : undefined;
  }

  show(list: ResourceList, chosen: ChosenItems | undefined, session: string): void {
    if (this.chosenIn(list) === undefined) this.#chosen = undefined;
    this.#showRows(list.resources);
    for (const resource of list.resources) {
      const cell = this.#counts.get(resource.name);
      if (cell) cell.textContent = resource.items === null ? 'per parent' : String(resource.items);
    }
    this.#markChosen();
    if (this.#chosen === undefined) this.#showItems(undefined, session);
    // Items read before another resource was chosen wait for the next refresh.
    else if (chosen?.name === this.#chosen) this.#showItems(chosen, session);
    this.#showStateless(list.stateless);
  }

  #showRows(resources: readonly ResourceSummary[]): void {
    const shown = JSON.stringify(resources.map((resource) => ({ ...resource, items: null })));
    if (shown === this.#shownRows) return;
    this.#shownRows = shown;
    this.#counts.clear();
    this.#buttons.clear();
    this.#summary.textContent =
      resources.length === 0
        ? 'The mock found no resources in this contract: every operation answers from it.'
        : 'The collections the mock keeps items of, per session. A name shows its items.';
    this.#table.hidden = resources.length === 0;
    this.#rows.replaceChildren(...resources.map((resource) => this.#row(resource)));
  }

  #row(resource: ResourceSummary): HTMLTableRowElement {
    const { name } = resource;
    const count = h('td', { role: 'cell', 'data-label': 'Items' });
    this.#counts.set(name, count);
    const title = resource.parent === null ? this.#chooser(name) : name;
    const notes = [
      ...(resource.parent === null ? [] : [`in ${resource.parent}`]),
      ...resource.hints,
    ].map((note) => h('span', { class: 'hint block' }, note));
    const filters = filtersText(resource);
    return h(
      'tr',
      { role: 'row' },
      h('th', { scope: 'row', role: 'rowheader', 'data-label': 'Resource' }, title, ...notes),
      h(
        'td',
        { role: 'cell', 'data-label': 'Paths', class: 'path' },
        h('code', { class: 'block' }, resource.collectionPath),
        ...(resource.itemPath === null ? [] : [h('code', { class: 'block' }, resource.itemPath)]),
      ),
      h('td', { role: 'cell', 'data-label': 'Key' }, keyText(resource)),
      h(
        'td',
        { role: 'cell', 'data-label': 'Operations' },
        resource.operations.map((op) => op.role).join(', '),
        ...(filters === '' ? [] : [h('span', { class: 'hint block' }, filters)]),
      ),
      count,
    );
  }

  /** The button that shows a top-level resource's items, or hides them again. */
  #chooser(name: string): HTMLButtonElement {
    const button = h(
      'button',
      { type: 'button', 'aria-pressed': 'false', 'aria-label': `Show items of ${name}` },
      name,
    );
    button.addEventListener('click', () => {
      this.#chosen = this.#chosen === name ? undefined : name;
      this.#markChosen();
      // Hidden until the new choice's items arrive, never another resource's under its name.
      this.#items.hidden = true;
      this.#shownItems = '';
      this.#onChoose();
    });
    this.#buttons.set(name, button);
    return button;
  }

  #markChosen(): void {
    for (const [name, button] of this.#buttons) {
      button.setAttribute('aria-pressed', String(name === this.#chosen));
    }
  }

  #showItems(chosen: ChosenItems | undefined, session: string): void {
    const shown = JSON.stringify([chosen, session]);
    if (shown === this.#shownItems) return;
    this.#shownItems = shown;
    this.#items.hidden = chosen === undefined;
    if (!chosen) {
      this.#items.replaceChildren();
      return;
    }
    const { name, items } = chosen;
    const more = items.length - ITEMS_SHOWN;
    this.#items.replaceChildren(
      h('h3', {}, `Items of ${name} in session ${session === '' ? 'default' : session}`),
      items.length === 0
        ? h('p', {}, 'No items.')
        : h(
            'ol',
            { class: 'items' },
            ...items
              .slice(0, ITEMS_SHOWN)
              .map((item) => h('li', {}, h('code', {}, JSON.stringify(item)))),
          ),
      ...(more > 0
        ? [
            h(
              'p',
              { class: 'hint' },
              `${String(more)} more not shown: GET /__admin/resources/${name}/items lists them all.`,
            ),
          ]
        : []),
    );
  }

  #showStateless(stateless: readonly StatelessOperation[]): void {
    const shown = JSON.stringify(stateless);
    if (shown === this.#shownStateless) return;
    this.#shownStateless = shown;
    this.#stateless.hidden = stateless.length === 0;
    this.#statelessSummary.textContent = `${String(stateless.length)} ${stateless.length === 1 ? 'operation' : 'operations'} answered from the contract, not kept`;
    this.#statelessList.replaceChildren(
      ...stateless.map((op) => h('li', {}, h('code', {}, op.operation), `: ${op.reason}`)),
    );
  }
}
