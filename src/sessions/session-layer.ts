import type { RequestHandler } from 'express';
import type { OperationIndex } from '../contract/operation-index.js';
import type { RequestContexts } from '../http/request-context.js';
import type { SessionRegistry } from './session-registry.js';

/**
 * Picks the session a pet API request talks to (X-Mock-Session, or the default one) before
 * anything else, and writes the request to that session's journal when it ends.
 */
export function createSessionLayer(
  sessions: SessionRegistry,
  contexts: RequestContexts,
  operations: OperationIndex,
): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['x-mock-session'];
    const session = sessions.get(typeof header === 'string' ? header : undefined);
    const context = { session };
    contexts.attach(req, context);
    const started = new Date().toISOString();
    res.once('close', () => {
      const path = req.originalUrl.split('?', 1)[0] ?? '';
      const found = contexts.find(req);
      session.journal.record({
        time: started,
        requestId: String(res.getHeader('X-Request-Id') ?? ''),
        method: req.method,
        path,
        operationId: operations.find(req.method, path)?.operationId ?? null,
        status: res.writableFinished ? res.statusCode : null,
        scenario: found?.forcedBy ?? null,
        validationErrors: found?.validationErrors ?? [],
      });
    });
    next();
  };
}
