import { CoverageTally } from './coverage-tally.js';
import type { Session } from './session.js';
import { checkSessionId } from './session-id.js';

export { InvalidSessionError } from './session-id.js';

/**
 * The default session plus up to `maxSessions` named ones, created on first use; the least
 * recently used named session is dropped when a new one would exceed the bound.
 */
export class SessionRegistry {
  /**
   * Every pet API answer of every session, dropped ones included: the whole suite's coverage. It
   * is not the sum of the sessions' own, which each session may clear without touching it.
   */
  readonly coverage = new CoverageTally();
  readonly #default: Session;
  readonly #create: (id: string) => Session;
  readonly #max: number;
  readonly #named = new Map<string, Session>();

  constructor(defaultSession: Session, create: (id: string) => Session, maxSessions: number) {
    this.#default = defaultSession;
    this.#create = create;
    this.#max = maxSessions;
  }

  /** Live named sessions. */
  get size(): number {
    return this.#named.size;
  }

  get default(): Session {
    return this.#default;
  }

  /** The session an X-Mock-Session value names (created if new); the default one for none. */
  get(id: string | undefined): Session {
    if (id === undefined) return this.#default;
    checkSessionId(id);
    let session = this.#named.get(id);
    if (session) {
      this.#named.delete(id); // re-inserted below: a Map keeps insertion order, so last is newest
    } else {
      session = this.#create(id);
      if (this.#named.size >= this.#max) {
        const oldest = this.#named.entries().next();
        if (oldest.done !== true) {
          const [oldestId, dropped] = oldest.value;
          this.#named.delete(oldestId);
          // Gives back what its pets and items took of the stores' budget.
          dropped.store.discard();
          dropped.items.discard();
        }
      }
    }
    this.#named.set(id, session);
    return session;
  }

  /**
   * The session an X-Mock-Session value names if it is live (the default one for none), without
   * creating it or touching its recency: for reads, which must not keep a session alive or make
   * room for one by dropping another.
   */
  find(id: string | undefined): Session | undefined {
    if (id === undefined) return this.#default;
    checkSessionId(id);
    return this.peek(id);
  }

  /** A live named session, without creating it or touching its recency. */
  peek(id: string): Session | undefined {
    return this.#named.get(id);
  }

  /**
   * The coverage to report: the whole suite's without an id, else that session's (none recorded
   * if it is not live: a report never creates a session).
   */
  coverageOf(id: string | undefined): CoverageTally | undefined {
    return id === undefined ? this.coverage : this.find(id)?.coverage;
  }

  /** Clears the coverage of one session, or without an id every coverage: the suite's and all sessions'. */
  clearCoverage(id: string | undefined): void {
    if (id !== undefined) {
      this.coverageOf(id)?.clear();
      return;
    }
    this.coverage.clear();
    this.#default.coverage.clear();
    for (const session of this.#named.values()) session.coverage.clear();
  }

  /** The live named sessions' ids, most recently used first, without touching their recency. */
  ids(): string[] {
    return [...this.#named.keys()].reverse();
  }

  /** Whether a named session is live, without touching its recency. */
  has(id: string): boolean {
    return this.#named.has(id);
  }
}
