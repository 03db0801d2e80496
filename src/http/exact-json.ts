import type { Express, Response } from 'express';
import { int64Breaches } from '../util/int64.js';
import { containsBigInt, stringifyJson, validationView } from '../util/json-codec.js';
import { responseViolation } from './to-http-error.js';

/**
 * Sends a JSON answer whose int64 values stay exact beyond 2^53. With `text`, the JSON text an
 * object or array `body` was parsed from (an answer relayed from the real service), that text is
 * sent as it is, and its int64 range is left to the caller to judge.
 */
export type SendJson = (
  res: Response,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
  text?: string,
) => void;

/**
 * Makes this app's res.json write int64 values beyond 2^53 digit for digit, and returns the way
 * to send such bodies. Response validation wraps res.json and checks what it is given, and a JSON
 * Schema validator cannot check bigints: a body with bigints goes to res.json as a view with
 * rounded numbers (its int64 range checked exactly here first), and this res.json writes the
 * exact body behind that view. Node 20 has no JSON.rawJSON, which would make this a replacer.
 */
export function installExactJson(app: Express): SendJson {
  // Behind each view, the text to write once the validator has passed it.
  const texts = new WeakMap<object, () => string>();
  const expressJson = app.response.json;
  app.response.json = function json(this: Response, body?: unknown): Response {
    const text = typeof body === 'object' && body !== null ? texts.get(body) : undefined;
    if (text === undefined) return expressJson.call(this, body);
    if (!this.get('Content-Type')) this.type('application/json');
    return this.send(text());
  };
  return (res, status, body, headers = {}, text) => {
    res.status(status).set(headers);
    if (text === undefined && !containsBigInt(body)) {
      res.json(body);
      return;
    }
    if (text === undefined) {
      // The validator sees rounded doubles, so 2^63 would pass for an int64: checked exactly here.
      const breaches = int64Breaches(body, '/response');
      if (breaches.length > 0) throw responseViolation(breaches);
    }
    const view = validationView(body);
    if (typeof view === 'object' && view !== null) {
      texts.set(view, text === undefined ? () => stringifyJson(body) : () => text);
    }
    res.json(view);
  };
}
