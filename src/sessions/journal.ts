/** One request as the journal keeps it. */
export interface JournalEntry {
  readonly time: string;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  /** null when no answer was sent (a network fault, or the client went away). */
  readonly status: number | null;
  /** What forced the answer: `scenario <name>`, `Prefer: code=NNN`, or null. */
  readonly scenario: string | null;
  readonly validationErrors: readonly string[];
}

/** The last `capacity` requests, in a ring: memory stays bounded whatever the traffic. */
export class Journal {
  readonly #capacity: number;
  #entries: JournalEntry[] = [];
  #next = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  record(entry: JournalEntry): void {
    if (this.#capacity === 0) return;
    if (this.#entries.length < this.#capacity) this.#entries.push(entry);
    else this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#capacity;
  }

  /** Newest first, at most `limit`. */
  list(limit: number): JournalEntry[] {
    const ordered = [...this.#entries.slice(this.#next), ...this.#entries.slice(0, this.#next)];
    return ordered.reverse().slice(0, limit);
  }

  clear(): void {
    this.#entries = [];
    this.#next = 0;
  }
}
