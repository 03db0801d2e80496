import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { quoteText } from '../util/quote-text.js';
import { HttpError } from './http-error.js';
import { hasBody } from './request-parts.js';
import { sendJsonText } from './send-json.js';
import { toHttpError } from './to-http-error.js';

/** Told of each refusal once it is answered (the pet API journals why a request was refused). */
export type RefusalListener = (req: Request, refusal: HttpError) => void;

/** The JSON 404 for any path that nothing else answers. */
export const answerNotFound: RequestHandler = function answerNotFound(req, _res, next) {
  const path = req.originalUrl.split('?', 1)[0] ?? '';
  next(new HttpError(404, 'not_found', `Nothing is served at ${quoteText(path)}.`));
};

/**
 * The one place errors become responses: always `{code, message, status}` as JSON, never HTML or
 * a stack trace. Server-side failures are logged with their cause.
 */
export function handleErrors(
  logger: Logger,
  bodyLimit: string,
  onRefused: RefusalListener,
): ErrorRequestHandler {
  return function handleError(error: unknown, req: Request, res: Response, _next) {
    const httpError = toHttpError(error, {
      method: req.method,
      path: req.originalUrl.split('?', 1)[0] ?? '',
      contentType: req.headers['content-type'],
      hasBody: hasBody(req),
      bodyLimit,
    });
    const requestId = res.getHeader('X-Request-Id');
    if (httpError.status === 503) {
      // A known condition (the state store away), said once per request without a stack.
      logger.warn({ requestId, code: httpError.code }, httpError.message);
    } else if (httpError.status >= 500) {
      logger.error({ err: error, requestId }, httpError.message);
    }
    if (res.headersSent) {
      // Too late for an Error body: end the connection so the client sees the failure.
      req.socket.destroy();
      return;
    }
    // Sent past the response validation on purpose: the body is built to the Error schema in one
    // place (HttpError), and some statuses here are PRODUCT.md decisions the contract cannot list
    // (400 on listPets, 405, 413), which the validator would turn into a 500.
    sendJsonText(res, httpError.status, JSON.stringify(httpError.toBody()), httpError.headers);
    onRefused(req, httpError);
  };
}
