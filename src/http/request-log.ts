import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

const CLIENT_ID = /^[\w.:-]{1,128}$/;

/** Starts the log of one request: gives it an id and logs its line when it is answered. */
export type RequestLog = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  operationId: string | undefined,
) => void;

/**
 * Gives each request an id (a client's `X-Request-Id` if sane) and logs one line per request when
 * its response is finished: id, method, path, operationId, status, duration.
 */
export function createRequestLog(logger: Logger): RequestLog {
  return (req, res, path, operationId) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // Nothing more to do per request when the line would not be written (--log-level silent).
    if (!logger.isLevelEnabled('info')) return;
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          requestId,
          method: req.method,
          path,
          operationId,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
  };
}
