import { HttpError, quoteInput } from '../http/http-error.js';
import type { Session } from './session.js';

const SESSION_ID = /^[\w.:-]{1,64}$/;

/**
 * The default session plus up to `maxSessions` named ones, created on first use; the least
 * recently used named session is dropped when a new one would exceed the bound.
 */
export class SessionRegistry {
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
    if (!SESSION_ID.test(id)) {
      throw new HttpError(
        422,
        'invalid_session',
        `The mock's control plane refused X-Mock-Session ${quoteInput(id)}: use 1 to 64 letters, digits, or . _ : -`,
      );
    }
    let session = this.#named.get(id);
    if (session) {
      this.#named.delete(id); // re-inserted below: a Map keeps insertion order, so last is newest
    } else {
      session = this.#create(id);
      if (this.#named.size >= this.#max) {
        const oldest = this.#named.keys().next();
        if (oldest.done !== true) this.#named.delete(oldest.value);
      }
    }
    this.#named.set(id, session);
    return session;
  }

  /** A live named session, without creating it or touching its recency. */
  peek(id: string): Session | undefined {
    return this.#named.get(id);
  }

  /** Whether a named session is live, without touching its recency. */
  has(id: string): boolean {
    return this.#named.has(id);
  }
}
