import type { Express, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../http/http-error.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../http/limits.js';
import { errorMessage } from '../error-message.js';
import { containsBigInt, parseJson, stringifyJson, validationView } from './json-codec.js';

/** Sends a JSON body whose int64 values stay exact beyond 2^53. */
export type SendJson = (res: Response, status: number, body: unknown) => void;

/**
 * Makes this app's res.json int64-exact. The response validator wraps res.json and checks what
 * it is given, and JSON Schema validators cannot check bigints; so a body with bigints is given
 * to res.json as a view with rounded numbers, and this res.json writes the exact body behind it.
 */
export function installExactJson(app: Express): SendJson {
  const exactBodies = new WeakMap<object, unknown>();
  const expressJson = app.response.json;
  app.response.json = function json(this: Response, body?: unknown): Response {
    if (typeof body !== 'object' || body === null || !exactBodies.has(body)) {
      return expressJson.call(this, body);
    }
    if (!this.get('Content-Type')) this.type('application/json');
    return this.send(stringifyJson(exactBodies.get(body)));
  };
  return (res, status, body) => {
    if (!containsBigInt(body)) {
      res.status(status).json(body);
      return;
    }
    const view = validationView(body);
    if (typeof view === 'object' && view !== null) exactBodies.set(view, body);
    res.status(status).json(view);
  };
}

/** A JSON body parser that keeps int64 digits, and the way back to the exact body. */
export interface ExactBodyParser {
  /** Parses req.body (text from express.text) into the validator's view in req.body. */
  readonly parse: RequestHandler;
  /** The request's exact JSON body (req.body itself when it was not parsed here). */
  readonly bodyOf: (req: Request) => unknown;
}

/**
 * Parses JSON request bodies without losing int64 digits: the validator gets a view with rounded
 * numbers in req.body, the handlers the exact body through `bodyOf`.
 */
export function createExactBodyParser(): ExactBodyParser {
  const exactBodies = new WeakMap<object, unknown>();
  const bodyOf = (req: Request): unknown => {
    const body: unknown = req.body;
    return typeof body === 'object' && body !== null && exactBodies.has(body)
      ? exactBodies.get(body)
      : body;
  };
  const parse: RequestHandler = (req, _res, next) => {
    const text: unknown = req.body;
    if (typeof text !== 'string') {
      next();
      return;
    }
    if (text.trim() === '') {
      req.body = undefined;
      next();
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      next(
        new HttpError(
          400,
          'bad_request',
          `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
        ),
      );
      return;
    }
    let exact: unknown;
    try {
      exact = parseJson(text, true);
    } catch (error) {
      const reason = errorMessage(error).slice(0, 120);
      next(new HttpError(400, 'bad_request', `The request body is not valid JSON: ${reason}`));
      return;
    }
    const view = validationView(exact);
    if (typeof view === 'object' && view !== null) exactBodies.set(view, exact);
    req.body = view;
    next();
  };
  return { parse, bodyOf };
}
