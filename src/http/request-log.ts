import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';

const CLIENT_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (a client's `X-Request-Id` if sane) and logs one line per request when
 * its response is finished: id, method, path, operationId (from `operationIdOf`), status, duration.
 */
export function logRequest(
  logger: Logger,
  operationIdOf: (req: Request) => string | undefined,
): RequestHandler {
  return function logRequest(req, res, next) {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // Nothing more to do per request when the line would not be written (--log-level silent).
    if (logger.isLevelEnabled('info')) {
      const method = req.method;
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        logger.info(
          {
            requestId,
            method,
            path: req.originalUrl.split('?', 1)[0],
            operationId: operationIdOf(req),
            status: res.statusCode,
            durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request',
        );
      });
    }
    next();
  };
}

/** Asks browsers not to sniff a type other than the one each answer declares. */
export const noSniff: RequestHandler = function noSniff(_req, res, next) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};
