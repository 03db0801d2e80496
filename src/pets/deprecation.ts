import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Operation } from '../contract/operation-index.js';

/**
 * RFC 9745 wants the date the operation was deprecated; the interface gives none, only that
 * version 1.0.0 marks it deprecated. We use 2025-01-01T00:00:00Z, i.e. "already deprecated".
 */
export const DEPRECATION = '@1735689600';
/** RFC 8594: removal is announced for 5 December 2030. */
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

const MAX_CLIENTS_REMEMBERED = 1000;

/** Marks an answer of a deprecated operation; called before anything can refuse the request. */
export type DeprecationNotice = (req: IncomingMessage, res: ServerResponse, op: Operation) => void;

/**
 * Marks every response of an operation the contract marks deprecated (getPet; its 401s and 404s
 * included) with Deprecation, Sunset and a Link to its replacement, and logs a warning once per
 * client.
 */
export function createDeprecationNotice(logger: Logger, basePath: string): DeprecationNotice {
  const link = `<${basePath}/pets>; rel="successor-version"; title="GET /pets with a status filter"`;
  const warned = new Set<string>();
  return (req, res, op) => {
    res.setHeader('Deprecation', DEPRECATION);
    res.setHeader('Sunset', SUNSET);
    res.setHeader('Link', link);
    const client = `${req.socket.remoteAddress ?? ''} ${req.headers['user-agent'] ?? ''}`;
    if (warned.has(client)) return;
    if (warned.size >= MAX_CLIENTS_REMEMBERED) warned.clear();
    warned.add(client);
    logger.warn(
      { operationId: op.operationId, client, sunset: SUNSET },
      'getPet is deprecated and will be removed on 2030-12-05: use GET /pets with a status filter',
    );
  };
}
