import type { RequestHandler } from 'express';
import { notAcceptable } from './to-http-error.js';

/** What every answer is: a client must accept it, parameters included. */
const ANSWER_TYPE = 'application/json; charset=utf-8';

/**
 * 406 for an Accept header that excludes JSON, before any handler or store runs: the validator
 * checks Accept only when it validates the answer, after the handler has run.
 */
export const checkAccept: RequestHandler = function checkAccept(req, _res, next) {
  next(req.accepts(ANSWER_TYPE) === false ? notAcceptable() : undefined);
};
