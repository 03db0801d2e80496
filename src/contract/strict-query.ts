import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error.js';
import type { OperationOf } from './operation-of.js';

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Integer query parameters must be written as decimal integers. The validator coerces query
 * strings with Number(), which takes `0x10`, `1e400`, ` 5` or `5\n` for numbers; the contract
 * says integer, so they are refused here, before it.
 */
export function createStrictQueryIntegers(operationOf: OperationOf): RequestHandler {
  return (req, _res, next) => {
    const op = operationOf(req);
    for (const name of op?.integerQueryParameters ?? []) {
      const value: unknown = req.query[name];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !DECIMAL_INTEGER.test(value)) {
        next(
          new HttpError(
            400,
            'bad_request',
            `Query parameter '${name}' must be one decimal integer: the value is outside the contract.`,
          ),
        );
        return;
      }
    }
    next();
  };
}
