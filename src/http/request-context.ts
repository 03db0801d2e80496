import type { Request } from 'express';
import type { Session } from '../sessions/session.js';

/** What the layers of one pet API request learn about it, for the handlers and the journal. */
export interface RequestContext {
  readonly session: Session;
  /** What forced the answer, if anything: `scenario <name>` or `Prefer: code=NNN`. */
  forcedBy?: string;
  /** The validation errors the request was refused for. */
  validationErrors?: readonly string[];
}

/** Per-request contexts of one app, kept beside (not on) Express's request objects. */
export class RequestContexts {
  readonly #contexts = new WeakMap<Request, RequestContext>();

  attach(req: Request, context: RequestContext): void {
    this.#contexts.set(req, context);
  }

  /** The context of a pet API request; only routes behind the session layer may ask. */
  of(req: Request): RequestContext {
    const context = this.#contexts.get(req);
    if (!context) throw new Error('no request context: the session layer did not run');
    return context;
  }

  find(req: Request): RequestContext | undefined {
    return this.#contexts.get(req);
  }
}
