import type { RequestHandler } from 'express';
import type { CoveredAnswer } from '../state/coverage-tally.js';
import type { SessionRegistry } from '../state/session-registry.js';
import type { PetCall, PetCalls } from '../http/pet-call.js';
import { recordingSession } from './session-steps.js';

/** How a finished call counts for coverage; the status sent is null when none was. */
function coveredAnswer(call: PetCall, sent: number | null): CoveredAnswer {
  const operation = call.match?.operation;
  if (!operation) return { kind: 'unmatched', method: call.method, path: call.path };
  const { upstream } = call;
  return {
    kind: 'operation',
    operationId: operation.operationId,
    // Coverage is about what the operation answered: strict mode sent the client 502 instead.
    status: upstream?.status ?? sent,
    forced: call.forcedBy !== undefined,
    brokeContract: upstream !== undefined && upstream.violations.length > 0,
  };
}

/**
 * Counts every pet API answer for coverage once it is known, in the whole suite's tally and in its
 * session's (chosen as the journal chooses it). It reads only the final status and the call, so an
 * answer counts the same whichever step gave it. No answer sent (a network fault, or a client that
 * left) counts as the operation's `noAnswer`, covering no status. A forwarded call (proxy mode)
 * counts the real service's status and whether that answer broke the contract (call.upstream).
 */
export function recordCoverage(sessions: SessionRegistry, calls: PetCalls): RequestHandler {
  return function recordCoverage(req, res, next) {
    const call = calls.of(req);
    res.once('close', () => {
      const answer = coveredAnswer(call, res.writableFinished ? res.statusCode : null);
      sessions.coverage.record(answer);
      recordingSession(call, req, sessions).coverage.record(answer);
    });
    next();
  };
}
