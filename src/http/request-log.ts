import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { OperationOf } from '../contract/operation-of.js';

const CLIENT_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (a client's `X-Request-Id` if sane) and logs one line per request when
 * its response is finished: id, method, path, operationId, status, duration.
 */
export function createRequestLog(logger: Logger, operationOf: OperationOf): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // Nothing more to do per request when the line would not be written (--log-level silent).
    if (!logger.isLevelEnabled('info')) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const path = req.originalUrl.split('?', 1)[0] ?? '';
      logger.info(
        {
          requestId,
          method: req.method,
          path,
          operationId: operationOf(req)?.operationId,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
