import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { StateUnavailableError } from '../state/mock-state.js';
import { quoteText } from '../util/quote-text.js';
import { HttpError } from './http-error.js';
import { hasBody } from './request-parts.js';
import { sendJsonText } from './send-json.js';
import { toHttpError } from './to-http-error.js';

/** Told of each refusal once it is answered (the pet API journals why a request was refused). */
export type RefusalListener = (req: Request, refusal: HttpError) => void;

/** An answer other than the Error body for a refusal (the contract's own error shape), if any. */
export type RefusalShaper = (req: Request, refusal: HttpError) => Promise<ShapedAnswer | undefined>;

/** An error answer already written in a contract's shape: status, headers, and a body if any. */
export interface ShapedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The Content-Type and bytes of the body; undefined for none. */
  readonly body: { readonly type: string; readonly bytes: Buffer } | undefined;
}

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
  {
    onRefused,
    shape,
    pathParameterName,
  }: {
    onRefused: RefusalListener;
    shape?: RefusalShaper;
    /** The contract's names of a request's path parameters, where the validator knows others. */
    pathParameterName?: (req: Request) => ((name: string) => string) | undefined;
  },
): ErrorRequestHandler {
  return async function handleError(error: unknown, req: Request, res: Response, _next) {
    const httpError = toHttpError(error, {
      method: req.method,
      path: req.originalUrl.split('?', 1)[0] ?? '',
      contentType: req.headers['content-type'],
      hasBody: hasBody(req),
      bodyLimit,
      pathParameterName: pathParameterName?.(req),
    });
    const requestId = res.getHeader('X-Request-Id');
    if (httpError.status === 503) {
      // A known condition (the state store away), said once per request without a stack, with
      // the store client's own words, which the answer leaves out.
      const storeSaid = error instanceof StateUnavailableError ? error.storeSaid : undefined;
      logger.warn({ requestId, code: httpError.code, storeSaid }, httpError.message);
    } else if (httpError.status >= 500) {
      logger.error({ err: error, requestId }, httpError.message);
    }
    if (res.headersSent) {
      // Too late for an Error body: end the connection so the client sees the failure.
      req.socket.destroy();
      return;
    }
    let shaped: ShapedAnswer | undefined;
    try {
      shaped = await shape?.(req, httpError);
    } catch (failure) {
      logger.error({ err: failure, requestId }, "the contract's error answer could not be written");
    }
    // The client may have gone while the shape was written.
    if (res.writableEnded || res.destroyed) return;
    if (shaped) {
      res.statusCode = shaped.status;
      for (const [name, value] of Object.entries({ ...httpError.headers, ...shaped.headers })) {
        res.setHeader(name, value);
      }
      if (shaped.body) {
        res.setHeader('Content-Type', shaped.body.type);
        res.setHeader('Content-Length', shaped.body.bytes.length);
      }
      res.end(shaped.body?.bytes);
    } else {
      // Sent past the response validation on purpose: the body is built to the Error schema in
      // one place (HttpError), and some statuses here are PRODUCT.md decisions the contract
      // cannot list (400 on listPets, 405, 413), which the validator would turn into a 500.
      sendJsonText(res, httpError.status, JSON.stringify(httpError.toBody()), httpError.headers);
    }
    onRefused(req, httpError);
  };
}
