import { truncatedCopy } from '../util/quote-text.js';

/** One request as the journal keeps it. */
export interface JournalEntry {
  readonly time: string;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The query as sent, without its `?`; empty when there is none. */
  readonly query: string;
  readonly operationId: string | null;
  /** null when no answer was sent (a network fault, or the client went away). */
  readonly status: number | null;
  /** What forced the answer: `scenario <name>`, `Prefer: code=NNN`, or null. */
  readonly scenario: string | null;
  readonly validationErrors: readonly string[];
}

/** Bytes all sessions' journals may keep together (--journal-bytes). */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024;

/** What one entry may keep of the client's text; longer is cut and ends with `…`. */
export const JOURNAL_ENTRY_LIMITS = {
  path: 1024,
  query: 1024,
  requestId: 128,
  /** Validation errors kept of one request, and characters of each. */
  errors: 20,
  error: 512,
} as const;

/** What V8 spends on an entry besides its strings' characters (objects, array, headers). */
const ENTRY_OVERHEAD_BYTES = 256;

/** How much of the client's text an entry keeps. */
type EntryLimits = Readonly<Record<keyof typeof JOURNAL_ENTRY_LIMITS, number>>;

/** What a cut-down entry keeps, to fit a small share of the journal: 648 bytes (64k / 101). */
const CUT_DOWN_LIMITS: EntryLimits = {
  path: 32,
  query: 32,
  requestId: JOURNAL_ENTRY_LIMITS.requestId,
  errors: 1,
  error: 32,
};

/** An entry as kept: client text cut to `limits`, apart from the request's strings. */
function kept(entry: JournalEntry, limits: EntryLimits = JOURNAL_ENTRY_LIMITS): JournalEntry {
  const extra = entry.validationErrors.length - limits.errors;
  const validationErrors = entry.validationErrors
    .slice(0, limits.errors)
    .map((text) => truncatedCopy(text, limits.error));
  if (extra > 0) validationErrors.push(`(and ${extra} more)`);
  return {
    ...entry,
    requestId: truncatedCopy(entry.requestId, limits.requestId),
    path: truncatedCopy(entry.path, limits.path),
    query: truncatedCopy(entry.query, limits.query),
    validationErrors,
  };
}

/** What an entry is charged against the journal's bytes (two bytes a character, at worst). */
function costOf(entry: JournalEntry): number {
  let chars = entry.time.length + entry.requestId.length + entry.method.length + entry.path.length;
  chars += entry.query.length;
  chars += (entry.operationId?.length ?? 0) + (entry.scenario?.length ?? 0);
  for (const text of entry.validationErrors) chars += text.length;
  return 2 * chars + ENTRY_OVERHEAD_BYTES;
}

/**
 * The last requests, newest last: at most `capacity` of them and `maxBytes` of them together
 * (the oldest go first), so memory stays bounded whatever the traffic. Long client text in an
 * entry is cut (JOURNAL_ENTRY_LIMITS).
 */
export class Journal {
  readonly #capacity: number;
  readonly #maxBytes: number;
  #entries: { entry: JournalEntry; cost: number }[] = [];
  #bytes = 0;

  constructor(capacity: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.#capacity = capacity;
    this.#maxBytes = maxBytes;
  }

  /** Bytes the kept entries are charged. */
  get bytes(): number {
    return this.#bytes;
  }

  record(entry: JournalEntry): void {
    if (this.#capacity === 0) return;
    const item = { entry: kept(entry), cost: 0 };
    item.cost = costOf(item.entry);
    if (item.cost > this.#maxBytes) {
      // A share smaller than the entry (many sessions, few --journal-bytes): keep what fits of
      // it rather than nothing, as refused requests are the ones worth seeing.
      item.entry = kept(entry, CUT_DOWN_LIMITS);
      item.cost = costOf(item.entry);
      if (item.cost > this.#maxBytes) return;
    }
    this.#entries.push(item);
    this.#bytes += item.cost;
    while (this.#entries.length > this.#capacity || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.shift();
      if (!oldest) break;
      this.#bytes -= oldest.cost;
    }
  }

  /** Newest first, at most `limit`. */
  list(limit: number): JournalEntry[] {
    const newest: JournalEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && newest.length < limit; i -= 1) {
      const item = this.#entries[i];
      if (item) newest.push(item.entry);
    }
    return newest;
  }

  clear(): void {
    this.#entries = [];
    this.#bytes = 0;
  }
}
