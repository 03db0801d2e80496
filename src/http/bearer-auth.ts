import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

/** The WWW-Authenticate challenge of every 401 of the pet API. */
export const CHALLENGE = 'Bearer realm="petstore"';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function unauthorized(message: string, challenge = CHALLENGE): HttpError {
  return new HttpError(401, 'unauthorized', message, { 'WWW-Authenticate': challenge });
}

/** Compares a token with every key in constant time (digests make the lengths equal). */
function createTokenCheck(keys: readonly string[]): (token: string) => boolean {
  const digests = keys.map(digest);
  return (token) => {
    const candidate = digest(token);
    return digests.reduce((found, key) => timingSafeEqual(key, candidate) || found, false);
  };
}

/** The bearer token of an Authorization header, or the 401 that explains what is wrong. */
function bearerTokenOf(header: string | undefined, what: string): string | HttpError {
  if (header === undefined || header.trim() === '') {
    return unauthorized(`Missing ${what}: send it as "Authorization: Bearer <token>".`);
  }
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  if (match?.[1]?.toLowerCase() !== 'bearer') {
    return unauthorized('The Authorization header must use the Bearer scheme.');
  }
  const token = match[2]?.trim() ?? '';
  return token === '' ? unauthorized(`The bearer token is empty: send the ${what}.`) : token;
}

/** Checks an Authorization header; returns the 401 to answer, or undefined when it passes. */
type TokenGuard = (header: string | undefined) => HttpError | undefined;

function createGuard(keys: readonly string[], what: string): TokenGuard {
  const isKnown = keys.length > 0 ? createTokenCheck(keys) : () => true;
  return (header) => {
    const token = bearerTokenOf(header, what);
    if (token instanceof HttpError) return token;
    return isKnown(token)
      ? undefined
      : unauthorized(`Invalid ${what}.`, `${CHALLENGE}, error="invalid_token"`);
  };
}

/**
 * Bearer authentication for every pet operation, checked before anything else. With no keys
 * configured any non-empty token is accepted; otherwise only the given keys.
 */
export function authenticate(apiKeys: readonly string[]): RequestHandler {
  const guard = createGuard(apiKeys, 'API key');
  return function authenticate(req, _res, next) {
    next(guard(req.headers.authorization));
  };
}

/** The admin API's guard: open without a token; with one, only that token (never an API key). */
export function authenticateAdmin(adminToken: string | undefined): RequestHandler {
  const guard =
    adminToken === undefined ? () => undefined : createGuard([adminToken], 'admin token');
  return function authenticateAdmin(req, _res, next) {
    next(guard(req.headers.authorization));
  };
}
