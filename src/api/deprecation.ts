import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { PetCalls } from '../http/pet-call.js';
import type { Operation } from '../contract/operation-index.js';
import { isPetStoreOperation } from './pet-handlers.js';

/**
 * RFC 9745 wants the date the operation was deprecated; the interface gives none, only that
 * version 1.0.0 marks it deprecated. We use 2025-01-01T00:00:00Z, i.e. "already deprecated".
 */
export const DEPRECATION = '@1735689600';
/** RFC 8594: removal is announced for 5 December 2030. */
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

const MAX_CLIENTS_REMEMBERED = 1000;

/**
 * What the Pet Store's interface says of its deprecated getPet, and no contract says in a form
 * the mock can read: when it goes, and what replaces it (a named override of the Pet Store's).
 */
function petStoreSunset(op: Operation): boolean {
  return op.operationId === 'getPet' && isPetStoreOperation(op);
}

/**
 * Marks every response of an operation the contract marks deprecated (its 401s and 404s
 * included, so this comes before anything can refuse the request) with Deprecation (RFC 9745),
 * and logs a warning once per client. The Pet Store's getPet also gets its Sunset and a Link to
 * its replacement.
 */
export function noticeDeprecation(logger: Logger, calls: PetCalls): RequestHandler {
  const warned = new Set<string>();
  return function noticeDeprecation(req, res, next) {
    const op = calls.of(req).match?.operation;
    if (!op?.deprecated) {
      next();
      return;
    }
    const petStore = petStoreSunset(op);
    res.setHeader('Deprecation', DEPRECATION);
    if (petStore) {
      res.setHeader('Sunset', SUNSET);
      // The replacement, under the base path this API is served at.
      res.setHeader(
        'Link',
        `<${req.baseUrl}/pets>; rel="successor-version"; title="GET /pets with a status filter"`,
      );
    }
    const client = `${req.socket.remoteAddress ?? ''} ${req.headers['user-agent'] ?? ''}`;
    if (!warned.has(client)) {
      if (warned.size >= MAX_CLIENTS_REMEMBERED) warned.clear();
      warned.add(client);
      if (petStore) {
        logger.warn(
          { operationId: op.name, client, sunset: SUNSET },
          'getPet is deprecated and will be removed on 2030-12-05: use GET /pets with a status filter',
        );
      } else {
        logger.warn({ operationId: op.name, client }, `${op.name} is deprecated by the contract`);
      }
    }
    next();
  };
}
