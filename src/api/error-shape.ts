import type { ContractAnswer, ContractAnswers } from '../contract/contract-answers.js';
import type { Contract } from '../contract/load-contract.js';
import { documentsStatus, type Operation } from '../contract/operation-index.js';
import type { SchemaCheck } from '../contract/schema-validator.js';
import type { ErrorBody } from '../http/http-error.js';
import { isRecord } from '../util/is-record.js';
import { oneLine, truncate } from '../util/quote-text.js';

import { ERROR_MESSAGE_HEADER } from '../http/http-error.js';

/** An error answered in the contract's shape: its documented answer, the mock's message beside it. */
export type ShapedError = ContractAnswer;

/**
 * How an error is answered for an operation. The mock's `{code, message, status}` where the
 * contract documents that status with a JSON schema that takes it (the Pet Store's Error, and any
 * contract with the same shape), or documents nothing for it; else the contract's own answer for
 * that status (its example, or data generated from its schema, in its media type; no body where it
 * documents none), with the mock's message in X-Mock-Error: a client of the contract then gets the
 * error body it was written for.
 */
export interface ErrorShapes {
  shape(
    op: Operation | undefined,
    body: ErrorBody,
    request: {
      choose?: (offered: readonly string[]) => string | false;
    },
  ): Promise<ShapedError | undefined>;
}

/** Where an error body says what went wrong, by property name, the likeliest first. */
const MESSAGE_PLACES = ['message', 'detail', 'error_description', 'description', 'error', 'title'];

/** A generated error body with the mock's message, code and status where it has their places. */
function withOwnWords(generated: Record<string, unknown>, own: ErrorBody): Record<string, unknown> {
  const told = { ...generated };
  const place = MESSAGE_PLACES.find((name) => typeof told[name] === 'string');
  if (place !== undefined) told[place] = own.message;
  if (typeof told.code === 'string') told.code = own.code;
  if (typeof told.status === 'number') told.status = own.status;
  return told;
}

export function createErrorShapes(
  contract: Pick<Contract, 'checkAnswer'>,
  answers: Pick<ContractAnswers, 'answer' | 'mediaTypesOf'>,
): ErrorShapes {
  const checks = new Map<string, SchemaCheck | undefined>();
  const checkOf = (op: Operation, status: number): SchemaCheck | undefined => {
    const key = `${op.name} ${status}`;
    if (!checks.has(key)) {
      let check: SchemaCheck | undefined;
      try {
        check = contract.checkAnswer(op, status);
      } catch {
        check = undefined;
      }
      checks.set(key, check);
    }
    return checks.get(key);
  };
  return {
    shape: async (op, body, { choose }) => {
      if (!op || !documentsStatus(op, body.status)) return undefined;
      const check = checkOf(op, body.status);
      if (check && check(body).length === 0) return undefined;
      let answer: ContractAnswer;
      try {
        answer = await answers.answer(op, {
          status: body.status,
          // An error goes out whatever the client accepts: in its first type, failing that.
          choose: (offered) => (choose?.(offered) || offered[0]) ?? false,
        });
      } catch {
        // The contract's answer cannot be written (a schema no value keeps to): the mock's own.
        return undefined;
      }
      // Generated data says nothing: where the contract's shape has a place for the message (and
      // the code and status), the mock's own go there, if the schema still takes the body.
      const told =
        answer.source === 'generated' && check && isRecord(answer.body)
          ? withOwnWords(answer.body, body)
          : undefined;
      return {
        ...answer,
        ...(told && check?.(told).length === 0 && { body: told }),
        headers: {
          ...answer.headers,
          [ERROR_MESSAGE_HEADER]: truncate(oneLine(body.message), 300),
        },
      };
    },
  };
}
