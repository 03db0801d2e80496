import type { JournalEntry } from './admin-client.js';
import { curlCommand, needsBody } from './curl.js';
import { byId, h, hiddenText } from './dom.js';

const COLUMNS = 6;

/** A time of day with milliseconds, in the browser's zone: 14:03:07.123. */
function timeOfDay(iso: string): string {
  const date = new Date(iso);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** The path with its query, as sent. */
function target(entry: JournalEntry): string {
  return entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
}

/** Tells the page that something was copied, or could not be. */
export type Notify = (message: string) => void;

/**
 * The request journal as a table, newest first (explicit roles: the narrow layout's CSS would
 * otherwise take the table's semantics away). Rows are kept by entry, so a poll adds the new
 * ones on top and drops the gone ones without closing an open row or moving the focus.
 */
export class JournalView {
  readonly #table = byId('journal', HTMLTableElement);
  readonly #empty = byId('journal-empty', HTMLParagraphElement);
  readonly #groups = new Map<string, HTMLTableSectionElement>();
  readonly #notify: Notify;
  #serial = 0;

  constructor(notify: Notify) {
    this.#notify = notify;
  }

  /** Forgets every row (another session's journal is shown next). */
  clear(): void {
    for (const group of this.#groups.values()) group.remove();
    this.#groups.clear();
  }

  show(entries: readonly JournalEntry[], session: string): void {
    const seen = new Map<string, number>();
    const keyed = entries.map((entry): [string, JournalEntry] => {
      const base = `${entry.time} ${entry.requestId} ${entry.method} ${target(entry)}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return [`${base} ${String(n)}`, entry];
    });
    const wanted = new Set(keyed.map(([key]) => key));
    for (const [key, group] of this.#groups) {
      if (!wanted.has(key)) {
        group.remove();
        this.#groups.delete(key);
      }
    }
    // Oldest first, each new one on top: the newest ends up first.
    for (const [key, entry] of keyed.reverse()) {
      if (this.#groups.has(key)) continue;
      const group = this.#group(entry, session);
      this.#table.tHead?.after(group);
      this.#groups.set(key, group);
    }
    this.#empty.hidden = entries.length > 0;
  }

  #group(entry: JournalEntry, session: string): HTMLTableSectionElement {
    this.#serial += 1;
    const detailId = `request-${String(this.#serial)}`;
    const time = timeOfDay(entry.time);
    const opener = h(
      'button',
      { type: 'button', class: 'opener', 'aria-expanded': 'false', 'aria-controls': detailId },
      time,
      hiddenText(` details of ${entry.method} ${target(entry)}`),
    );
    const status = entry.status === null ? 'no answer' : String(entry.status);
    const refused = entry.status === null || entry.status >= 400;
    const row = h(
      'tr',
      { role: 'row', class: refused ? 'refused' : '' },
      h('td', { role: 'cell', 'data-label': 'Time' }, opener),
      h('td', { role: 'cell', 'data-label': 'Method' }, entry.method),
      h('td', { role: 'cell', 'data-label': 'Path', class: 'path' }, target(entry)),
      h('td', { role: 'cell', 'data-label': 'Operation' }, entry.operationId ?? '—'),
      h('td', { role: 'cell', 'data-label': 'Status' }, status),
      h('td', { role: 'cell', 'data-label': 'Scenario' }, entry.scenario ?? '—'),
    );
    const detail = h('tr', { id: detailId, role: 'row', class: 'detail', hidden: '' });
    const cell = h('td', { role: 'cell', colspan: String(COLUMNS) });
    detail.append(cell);
    opener.addEventListener('click', () => {
      const open = opener.getAttribute('aria-expanded') !== 'true';
      // Built on first opening: most rows are never opened.
      if (open && cell.childElementCount === 0) cell.append(...this.#details(entry, session));
      opener.setAttribute('aria-expanded', String(open));
      detail.hidden = !open;
    });
    return h('tbody', { role: 'rowgroup', class: 'entry' }, row, detail);
  }

  #details(entry: JournalEntry, session: string): Node[] {
    const errors =
      entry.validationErrors.length === 0
        ? h('p', {}, 'No validation errors.')
        : h(
            'ul',
            { class: 'errors' },
            ...entry.validationErrors.map((error) => h('li', {}, error)),
          );
    const command = curlCommand(entry, location.origin, session);
    const copy = h('button', { type: 'button' }, 'Copy curl command');
    copy.addEventListener('click', () => {
      navigator.clipboard.writeText(command).then(
        () => {
          this.#notify('curl command copied.');
        },
        () => {
          this.#notify('Could not copy: select the command and copy it.');
        },
      );
    });
    const hint = needsBody(entry.method)
      ? 'Set TOKEN to an API key, and BODY to the JSON body (the journal keeps no bodies).'
      : 'Set TOKEN to an API key.';
    return [
      h('h3', {}, 'Validation errors'),
      errors,
      h('p', { class: 'hint' }, `Request id ${entry.requestId}`),
      h('h3', {}, 'Repeat it with curl'),
      h('pre', { class: 'curl' }, h('code', {}, command)),
      h('p', { class: 'hint' }, hint),
      copy,
    ];
  }
}
