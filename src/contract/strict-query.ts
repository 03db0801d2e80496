import { HttpError } from '../http/http-error.js';
import type { Operation } from './operation-index.js';

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Integer query parameters must be written as decimal integers. The schema checks coerce query
 * strings as Number() does, which takes `0x10`, `1e400`, ` 5` or `5\n` for numbers; the contract
 * says integer, so they are refused here, before them. Returns the 400 to answer, or undefined.
 */
export function queryIntegerBreach(
  op: Operation,
  query: Readonly<Record<string, unknown>>,
): HttpError | undefined {
  for (const name of op.integerQueryParameters) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !DECIMAL_INTEGER.test(value)) {
      return new HttpError(
        400,
        'bad_request',
        `Query parameter '${name}' must be one decimal integer: the value is outside the contract.`,
      );
    }
  }
  return undefined;
}
