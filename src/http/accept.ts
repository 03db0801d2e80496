import type { RequestHandler } from 'express';
import { contentTypeOf } from '../contract/media-types.js';
import type { Operation } from '../contract/operation-index.js';
import { NotAcceptableError } from '../contract/contract-answers.js';
import type { PetCalls } from './pet-call.js';

/**
 * 406 for an Accept header that takes none of the media types the operation's answer is
 * documented in (parameters included: a client must accept `application/json; charset=utf-8`),
 * before any handler or store runs: the validator checks Accept only when it validates the
 * answer, after the handler has run. An answer documented without content takes any Accept.
 */
export function checkAccept(
  calls: PetCalls,
  mediaTypesOf: (op: Operation) => readonly string[],
): RequestHandler {
  return function checkAccept(req, _res, next) {
    const op = calls.of(req).match?.operation;
    const offered = op ? mediaTypesOf(op) : [];
    if (offered.length === 0 || req.accepts(offered.map(contentTypeOf)) !== false) {
      next();
      return;
    }
    next(new NotAcceptableError(offered));
  };
}
