import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';
import { challengeFor, createSecurityCheck, REALM } from './credentials.js';
import type { PetCalls } from './pet-call.js';
import type { Operation, OperationIndex } from '../contract/operation-index.js';

/** The WWW-Authenticate challenge of every 401 of the pet API. */
export const CHALLENGE = `Bearer realm="${REALM}"`;

function unauthorized(message: string, challenge = CHALLENGE): HttpError {
  return new HttpError(401, 'unauthorized', message, { 'WWW-Authenticate': challenge });
}

/** The WWW-Authenticate challenge of an operation's 401: each scheme it accepts (Bearer without any). */
export function challengeOfOperation(op: Pick<Operation, 'security'>): string {
  return challengeFor(op.security) ?? CHALLENGE;
}

/**
 * The pet API's security, checked before anything else (a 401 comes before a 404 or a 405): the
 * contract's own requirements for the operation asked for (credentials.ts), or for a path it does
 * not have, those its operations share. With no keys configured any well-formed credential is
 * accepted; otherwise bearer tokens and API keys must be among them.
 */
export function authenticate(
  calls: PetCalls,
  operations: Pick<OperationIndex, 'unmatchedSecurity'>,
  apiKeys: readonly string[],
): RequestHandler {
  const check = createSecurityCheck(apiKeys);
  return function authenticate(req, _res, next) {
    const security = calls.of(req).match?.operation?.security ?? operations.unmatchedSecurity;
    const failure = check(security, { headers: req.headers, query: () => req.query });
    next(failure && unauthorized(failure.message, failure.challenge));
  };
}

/** The admin API's guard: open without a token; with one, only that token (never an API key). */
export function authenticateAdmin(adminToken: string | undefined): RequestHandler {
  if (adminToken === undefined) {
    return function authenticateAdmin(_req, _res, next) {
      next();
    };
  }
  const check = createSecurityCheck([adminToken], 'admin token');
  const security = [[{ kind: 'bearer', name: 'adminToken' } as const]];
  return function authenticateAdmin(req, _res, next) {
    const failure = check(security, { headers: req.headers, query: () => ({}) });
    next(failure && unauthorized(failure.message, failure.challenge));
  };
}
