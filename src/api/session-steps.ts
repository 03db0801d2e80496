import type { RequestHandler } from 'express';
import type { MockMetrics } from '../http/metrics.js';
import type { PetCall, PetCalls } from '../http/pet-call.js';
import { sessionIdOf } from '../http/request-parts.js';
import type { CoveredAnswer } from '../state/coverage-tally.js';
import type { MockState } from '../state/mock-state.js';
import { checkSessionId } from '../state/session-id.js';

/** How a finished call counts for coverage; the status sent is null when none was. */
function coveredAnswer(call: PetCall, sent: number | null): CoveredAnswer {
  const operation = call.match?.operation;
  if (!operation) return { kind: 'unmatched', method: call.method, path: call.path };
  const { upstream } = call;
  return {
    kind: 'operation',
    operationId: operation.name,
    // Coverage is about what the operation answered: strict mode sent the client 502 instead.
    status: upstream?.status ?? sent,
    forced: call.forcedBy !== undefined,
    brokeContract: upstream !== undefined && upstream.violations.length > 0,
  };
}

/**
 * Records each pet API request when it ends, refused ones included: in its session's journal, and
 * for coverage in the whole suite's tally and its session's. Coverage reads only the final status
 * and the call, so an answer counts the same whichever step gave it; no answer sent (a network
 * fault, a client that left) counts as the operation's `noAnswer`. A forwarded call (proxy mode)
 * counts the real service's status and whether that answer broke the contract. The metrics (when
 * the app keeps them) count it once, with how long it took, in the same listener.
 */
export function recordCall(
  state: MockState,
  calls: PetCalls,
  metrics: MockMetrics | undefined,
): RequestHandler {
  return function recordCall(req, res, next) {
    const call = calls.of(req);
    const started = performance.now();
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : null;
      const seconds = (performance.now() - started) / 1000;
      metrics?.recordAnswer(call.match?.operation?.name, status, seconds);
      state.recordCall({
        // A request refused before its session was opened names it all the same.
        session: call.session ?? sessionIdOf(req),
        authenticated: call.authenticated === true,
        journal: {
          time: call.time,
          requestId: String(res.getHeader('X-Request-Id') ?? ''),
          method: call.method,
          path: call.path,
          query: call.query,
          operationId: call.match?.operation?.name ?? null,
          status,
          scenario: call.forcedBy ?? null,
          validationErrors: call.validationErrors ?? [],
        },
        coverage: coveredAnswer(call, status),
      });
    });
    next();
  };
}

/** The session an authenticated request names in X-Mock-Session, its id checked (422). */
export function attachSession(calls: PetCalls): RequestHandler {
  return function attachSession(req, _res, next) {
    const call = calls.of(req);
    const session = sessionIdOf(req);
    if (session !== undefined) checkSessionId(session);
    call.session = session;
    call.authenticated = true;
    next();
  };
}
