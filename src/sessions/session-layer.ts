import type { Request, RequestHandler } from 'express';
import type { OperationOf } from '../contract/operation-of.js';
import type { RequestContexts } from '../http/request-context.js';
import type { Session } from './session.js';
import type { SessionRegistry } from './session-registry.js';

/** The session id a request names in X-Mock-Session, if any (checked by the registry). */
export function sessionIdOf(req: Request): string | undefined {
  const header = req.headers['x-mock-session'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * Writes every pet API request to a session's journal when it ends, refused ones included.
 * Mounted before auth, so it never creates a session: a request that did not get one (a 401)
 * goes to the journal of the live session it names, or to the default one.
 */
export function createJournalLayer(
  sessions: SessionRegistry,
  contexts: RequestContexts,
  operationOf: OperationOf,
): RequestHandler {
  return (req, res, next) => {
    const started = new Date().toISOString();
    res.once('close', () => {
      const context = contexts.find(req);
      const header = sessionIdOf(req);
      const session: Session =
        context?.session ??
        (header === undefined ? undefined : sessions.peek(header)) ??
        sessions.default;
      const path = req.originalUrl.split('?', 1)[0] ?? '';
      session.journal.record({
        time: started,
        requestId: String(res.getHeader('X-Request-Id') ?? ''),
        method: req.method,
        path,
        operationId: operationOf(req)?.operationId ?? null,
        status: res.writableFinished ? res.statusCode : null,
        scenario: context?.forcedBy ?? null,
        validationErrors: context?.validationErrors ?? [],
      });
    });
    next();
  };
}

/**
 * Picks the session an authenticated pet API request talks to: the one X-Mock-Session names
 * (created on first use; an invalid id is refused with 422), or the shared default one.
 */
export function createSessionLayer(
  sessions: SessionRegistry,
  contexts: RequestContexts,
): RequestHandler {
  return (req, _res, next) => {
    contexts.attach(req, { session: sessions.get(sessionIdOf(req)) });
    next();
  };
}
