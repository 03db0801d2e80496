import { HttpError } from './http-error.js';

/** Most query parameters one request may carry. */
export const MAX_QUERY_PARAMETERS = 32;
/** Deepest nesting of arrays and objects in a JSON body. */
export const MAX_JSON_DEPTH = 32;
/** Largest request line plus headers, in bytes (Node answers 431 beyond; see server.ts). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * A request's query may carry at most MAX_QUERY_PARAMETERS parameters (a client cannot make the
 * parser and validator work on thousands): the 400 to answer, or undefined.
 */
export function queryLimitBreach(search: string): HttpError | undefined {
  if (search === '') return undefined;
  let count = 1;
  for (let i = search.indexOf('&'); i >= 0; i = search.indexOf('&', i + 1)) count += 1;
  return count > MAX_QUERY_PARAMETERS
    ? new HttpError(
        400,
        'bad_request',
        `Too many query parameters: at most ${MAX_QUERY_PARAMETERS} are read.`,
      )
    : undefined;
}

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
