import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

/** Most query parameters one request may carry. */
export const MAX_QUERY_PARAMETERS = 32;
/** Deepest nesting of arrays and objects in a JSON body. */
export const MAX_JSON_DEPTH = 32;
/** Largest request line plus headers, in bytes (Node answers 431 beyond; see server.ts). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The first checks of every request: no content sniffing of what we send, and a bounded number
 * of query parameters (a client cannot make the parser and validator work on thousands).
 */
export const limitRequests: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const query = req.originalUrl.indexOf('?');
  if (query >= 0) {
    let count = 1;
    for (
      let i = req.originalUrl.indexOf('&', query);
      i >= 0;
      i = req.originalUrl.indexOf('&', i + 1)
    ) {
      count += 1;
    }
    if (count > MAX_QUERY_PARAMETERS) {
      next(
        new HttpError(
          400,
          'bad_request',
          `Too many query parameters: at most ${MAX_QUERY_PARAMETERS} are read.`,
        ),
      );
      return;
    }
  }
  next();
};

/** How deeply a JSON text nests arrays and objects, strings skipped; stops counting past `max`. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
