import type { Request, RequestHandler } from 'express';
import { sessionIdOf } from '../http/request-parts.js';
import type { Session } from '../state/session.js';
import type { SessionRegistry } from '../state/session-registry.js';
import type { PetCall, PetCalls } from '../http/pet-call.js';

/**
 * The session a finished request is recorded in: its own, or for one that did not get one (a
 * 401) the live session it names, or the default one. It never creates a session.
 */
export function recordingSession(call: PetCall, req: Request, sessions: SessionRegistry): Session {
  const named = sessionIdOf(req);
  return (
    call.session ?? (named === undefined ? undefined : sessions.peek(named)) ?? sessions.default
  );
}

/** Writes each pet API request to its session's journal when it ends, refused ones included. */
export function recordInJournal(sessions: SessionRegistry, calls: PetCalls): RequestHandler {
  return function recordInJournal(req, res, next) {
    const call = calls.of(req);
    res.once('close', () => {
      recordingSession(call, req, sessions).journal.record({
        time: call.time,
        requestId: String(res.getHeader('X-Request-Id') ?? ''),
        method: call.method,
        path: call.path,
        query: call.query,
        operationId: call.match?.operation?.operationId ?? null,
        status: res.writableFinished ? res.statusCode : null,
        scenario: call.forcedBy ?? null,
        validationErrors: call.validationErrors ?? [],
      });
    });
    next();
  };
}

/** Finds (or creates) the session an authenticated request names in X-Mock-Session. */
export function attachSession(sessions: SessionRegistry, calls: PetCalls): RequestHandler {
  return function attachSession(req, _res, next) {
    calls.of(req).session = sessions.get(sessionIdOf(req));
    next();
  };
}
