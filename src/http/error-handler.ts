import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError, quoteInput } from './http-error.js';
import type { RequestContexts } from './request-context.js';
import { toHttpError } from './to-http-error.js';

/** The JSON 404 for any path that nothing else answered. */
export const notFound: RequestHandler = (req, _res, next) => {
  const path = req.originalUrl.split('?', 1)[0] ?? '';
  next(new HttpError(404, 'not_found', `Nothing is served at ${quoteInput(path)}.`));
};

/**
 * The one place errors become responses: always `{code, message, status}` as JSON, never HTML or
 * a stack trace. Server-side failures are logged with their cause.
 */
export function createErrorHandler(
  logger: Logger,
  bodyLimit: string,
  contexts: RequestContexts,
): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const httpError = toHttpError(error, {
      method: req.method,
      path: req.originalUrl.split('?', 1)[0] ?? '',
      contentType: req.headers['content-type'],
      hasBody:
        Number(req.headers['content-length'] ?? 0) > 0 ||
        req.headers['transfer-encoding'] !== undefined,
      bodyLimit,
    });
    const context = contexts.find(req);
    if (context && httpError.status < 500) context.validationErrors = httpError.details;
    if (httpError.status >= 500) {
      logger.error({ err: error, requestId: res.getHeader('X-Request-Id') }, httpError.message);
    }
    if (res.headersSent) {
      // Too late for an Error body: end the connection so the client sees the failure.
      req.socket.destroy();
      return;
    }
    // Sent past the response validator on purpose: the body is built to the Error schema in one
    // place (HttpError), and some statuses here are PRODUCT.md decisions the contract cannot list
    // (400 on listPets, 405, 413), which the validator would turn into a 500.
    res
      .status(httpError.status)
      .set(httpError.headers)
      .type('application/json')
      .send(JSON.stringify(httpError.toBody()));
  };
}
