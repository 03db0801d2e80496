import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

const CHALLENGE = 'Bearer realm="petstore"';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function unauthorized(message: string, challenge = CHALLENGE): HttpError {
  return new HttpError(401, 'unauthorized', message, { 'WWW-Authenticate': challenge });
}

/** Compares a token with every key in constant time (digests make the lengths equal). */
function createKeyCheck(keys: readonly string[]): (token: string) => boolean {
  const digests = keys.map(digest);
  return (token) => {
    const candidate = digest(token);
    return digests.reduce((found, key) => timingSafeEqual(key, candidate) || found, false);
  };
}

/**
 * Bearer authentication for every pet operation, checked before anything else. With no keys
 * configured any non-empty token is accepted; otherwise only the given keys.
 */
export function createBearerAuth(apiKeys: readonly string[]): RequestHandler {
  const isKnown = apiKeys.length > 0 ? createKeyCheck(apiKeys) : () => true;
  return (req, _res, next) => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') {
      next(unauthorized('Missing API key: send it as "Authorization: Bearer <API_KEY>".'));
      return;
    }
    const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
    if (match?.[1]?.toLowerCase() !== 'bearer') {
      next(unauthorized('The Authorization header must use the Bearer scheme.'));
      return;
    }
    const token = match[2]?.trim() ?? '';
    if (token === '') {
      next(unauthorized('The bearer token is empty: send "Authorization: Bearer <API_KEY>".'));
      return;
    }
    if (!isKnown(token)) {
      next(unauthorized('Invalid API key.', `${CHALLENGE}, error="invalid_token"`));
      return;
    }
    next();
  };
}
