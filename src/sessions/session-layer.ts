import type { IncomingMessage } from 'node:http';
import type { PetCall } from '../pets/pet-call.js';
import type { Session } from './session.js';
import type { SessionRegistry } from './session-registry.js';

/** The session id a request names in X-Mock-Session, if any (checked by the registry). */
export function sessionIdOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-mock-session'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * Writes a pet API request to a session's journal when it ends, refused ones included. It never
 * creates a session: a request that did not get one (a 401) goes to the journal of the live
 * session it names, or to the default one.
 */
export function recordInJournal(call: PetCall, sessions: SessionRegistry): void {
  const started = new Date().toISOString();
  const { req, res } = call;
  res.once('close', () => {
    const header = sessionIdOf(req);
    const session: Session =
      call.session ??
      (header === undefined ? undefined : sessions.peek(header)) ??
      sessions.default;
    session.journal.record({
      time: started,
      requestId: String(res.getHeader('X-Request-Id') ?? ''),
      method: req.method ?? '',
      path: call.path,
      operationId: call.op?.operationId ?? null,
      status: res.writableFinished ? res.statusCode : null,
      scenario: call.forcedBy ?? null,
      validationErrors: call.validationErrors ?? [],
    });
  });
}
