import type { Response } from 'express';
import { ANSWER_SOURCE_HEADER, type ContractAnswer } from '../contract/contract-answers.js';
import { contentTypeOf, kindOf } from '../contract/media-types.js';
import type { SendJson } from '../http/exact-json.js';
import type { ShapedAnswer } from '../http/error-handler.js';
import { stringifyJson } from '../util/json-codec.js';

/**
 * Sends an answer taken from the contract, its source in X-Mock-Answer: JSON through res.json
 * (the validator checks it against the contract, int64 digits exact); other media types as the
 * text or bytes they were written in (what the validator cannot read, checked as data before it
 * was written); an answer without content as headers alone.
 */
export function sendContractAnswer(
  res: Response,
  answer: ContractAnswer,
  sendJson: SendJson,
): void {
  const headers = { ...answer.headers, [ANSWER_SOURCE_HEADER]: answer.source };
  const { mediaType } = answer;
  if (mediaType === undefined) {
    res.status(answer.status).set(headers).end();
    return;
  }
  // JSON the contract gives a schema goes through the validator; without one it has nothing to check.
  // (A null body too: the validator's hook answers res.json(null) with a 204.)
  if (kindOf(mediaType) === 'json' && answer.schema && answer.body !== null) {
    // application/json keeps res.json's own Content-Type; another JSON type is named.
    const named: Record<string, string> = { ...headers };
    if (mediaType !== 'application/json') named['Content-Type'] = contentTypeOf(mediaType);
    sendJson(res, answer.status, answer.body, named);
    return;
  }
  const { body } = writtenAnswer(answer);
  res
    .status(answer.status)
    .set(headers)
    .set('Content-Type', contentTypeOf(mediaType))
    .send(body?.bytes);
}

/** An answer from the contract as bytes to write (JSON with int64 digits exact), for the error handler. */
export function writtenAnswer(answer: ContractAnswer): ShapedAnswer {
  const headers = { ...answer.headers, [ANSWER_SOURCE_HEADER]: answer.source };
  const { mediaType } = answer;
  if (mediaType === undefined) return { status: answer.status, headers, body: undefined };
  const bytes = Buffer.isBuffer(answer.body)
    ? answer.body
    : Buffer.from(kindOf(mediaType) === 'json' ? stringifyJson(answer.body) : String(answer.body));
  return { status: answer.status, headers, body: { type: contentTypeOf(mediaType), bytes } };
}
