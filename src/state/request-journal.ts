import { truncatedCopy } from '../util/quote-text.js';

/** One request as the journal lists it. */
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

/** What one entry may keep of the client's text; longer is cut and ends with `…`. */
export const JOURNAL_ENTRY_LIMITS = {
  path: 1024,
  query: 1024,
  requestId: 128,
  /** Validation errors kept of one request, and characters of each. */
  errors: 20,
  error: 512,
} as const;

/** What an entry is charged besides its strings' characters: more than its objects take. */
const ENTRY_OVERHEAD_BYTES = 256;

/** Characters of an ISO date (`2030-01-01T00:00:00.000Z`), the form entries are listed in. */
const ISO_TIME_CHARS = 24;

/** The validation errors of the entries that have none: one array for them all, never listed. */
const NO_ERRORS: readonly string[] = Object.freeze([]);

/** One request as the pet API records it: `time` in milliseconds since the epoch. */
export type JournalRecord = Omit<JournalEntry, 'time'> & { readonly time: number };

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

/** The validation errors an entry keeps: `limits.errors` of them, each cut, and how many more. */
function keptErrors(errors: readonly string[], limits: EntryLimits): readonly string[] {
  if (errors.length === 0) return NO_ERRORS;
  const kept = errors.slice(0, limits.errors).map((text) => truncatedCopy(text, limits.error));
  if (errors.length > limits.errors) kept.push(`(and ${errors.length - limits.errors} more)`);
  return kept;
}

/** A record as kept: client text cut to `limits`, apart from the request's strings. */
function kept(record: JournalRecord, limits: EntryLimits = JOURNAL_ENTRY_LIMITS): JournalRecord {
  return {
    ...record,
    requestId: truncatedCopy(record.requestId, limits.requestId),
    path: truncatedCopy(record.path, limits.path),
    query: truncatedCopy(record.query, limits.query),
    validationErrors: keptErrors(record.validationErrors, limits),
  };
}

/** What a record is charged against the journal's bytes (two bytes a character, at worst). */
function costOf(record: JournalRecord): number {
  let chars = ISO_TIME_CHARS + record.requestId.length + record.method.length + record.path.length;
  chars += record.query.length;
  chars += (record.operationId?.length ?? 0) + (record.scenario?.length ?? 0);
  for (const text of record.validationErrors) chars += text.length;
  return 2 * chars + ENTRY_OVERHEAD_BYTES;
}

/**
 * A record as a journal of `maxBytes` keeps it, with what it is charged: the client's text cut;
 * where a whole entry would not fit the share (many sessions, few --journal-bytes), cut down to
 * what fits rather than nothing, as refused requests are the ones worth seeing; undefined where
 * even that does not fit.
 */
export function journalEntryOf(
  record: JournalRecord,
  maxBytes: number,
): { readonly record: JournalRecord; readonly cost: number } | undefined {
  let entry = kept(record);
  let cost = costOf(entry);
  if (cost > maxBytes) {
    entry = kept(record, CUT_DOWN_LIMITS);
    cost = costOf(entry);
    if (cost > maxBytes) return undefined;
  }
  return { record: entry, cost };
}

/** A kept record as the journal lists it: its time as an ISO date. */
export function listedEntry(record: JournalRecord): JournalEntry {
  return {
    ...record,
    time: new Date(record.time).toISOString(),
    validationErrors: [...record.validationErrors],
  };
}

/** A kept entry and what it is charged. */
interface Row {
  readonly record: JournalRecord;
  readonly cost: number;
}

/**
 * The last requests, newest last: at most `capacity` of them and `maxBytes` of them together
 * (the oldest go first), so memory stays bounded whatever the traffic. Long client text in an
 * entry is cut (JOURNAL_ENTRY_LIMITS).
 */
export class Journal {
  readonly #capacity: number;
  readonly #maxBytes: number;
  /** Oldest first. A queue: slots before #first are dropped ones, cut off once they are half. */
  #rows: (Row | undefined)[] = [];
  #first = 0;
  #bytes = 0;

  constructor(capacity: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.#capacity = capacity;
    this.#maxBytes = maxBytes;
  }

  /** Bytes the kept entries are charged. */
  get bytes(): number {
    return this.#bytes;
  }

  get #length(): number {
    return this.#rows.length - this.#first;
  }

  #dropFirst(): void {
    this.#bytes -= this.#rows[this.#first]?.cost ?? 0;
    this.#rows[this.#first] = undefined;
    this.#first += 1;
    if (this.#first * 2 >= this.#rows.length) {
      this.#rows.copyWithin(0, this.#first);
      this.#rows.length -= this.#first;
      this.#first = 0;
    }
  }

  record(record: JournalRecord): void {
    if (this.#capacity === 0) return;
    const row = journalEntryOf(record, this.#maxBytes);
    if (!row) return;
    this.#rows.push(row);
    this.#bytes += row.cost;
    while (this.#length > 0 && (this.#length > this.#capacity || this.#bytes > this.#maxBytes)) {
      this.#dropFirst();
    }
  }

  /** Newest first, at most `limit`. */
  list(limit: number): JournalEntry[] {
    const newest: JournalEntry[] = [];
    for (let at = this.#rows.length - 1; at >= this.#first && newest.length < limit; at -= 1) {
      const row = this.#rows[at];
      if (row) newest.push(listedEntry(row.record));
    }
    return newest;
  }

  clear(): void {
    this.#rows = [];
    this.#first = 0;
    this.#bytes = 0;
  }
}
