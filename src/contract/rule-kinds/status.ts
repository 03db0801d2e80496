import type { Contract } from '../load-contract.js';
import { documentedStatuses, documentsStatus, type Operation } from '../operation-index.js';
import { RuleError, type RuleKind } from './rule-kind.js';

/** What the status kind adds to a rule. */
export interface StatusFields {
  /** A status the contract documents for every matched operation. */
  readonly status?: number;
  /** Error code and message of a forced error (defaults derive from the status). */
  readonly code?: string;
  readonly message?: string;
  /** Body of a forced success answer, e.g. `[]` for an empty list. */
  readonly body?: unknown;
}

const TEXT = { type: 'string', minLength: 1 };

/** Whether the mock may force this status on an operation: documented, or a secured one's 401. */
export function canForce(op: Operation, status: number): boolean {
  return documentsStatus(op, status) || (status === 401 && op.security.length > 0);
}

/** Whether a forced success body satisfies an operation's answer for the status; its problems if not. */
function bodyProblems(
  contract: Contract,
  op: Operation,
  status: number,
  body: unknown,
): readonly string[] {
  const check = contract.checkAnswer(op, status);
  return check ? check(body) : [`/response: status ${status} documents no JSON body`];
}

function textOf(key: 'code' | 'message', value: unknown, status: number | undefined): string {
  if (typeof value !== 'string' || value === '') {
    throw new RuleError(`${key} must be a non-empty string`);
  }
  if (status === undefined || status < 400)
    throw new RuleError(`${key} needs an error status (4xx)`);
  return value;
}

/**
 * `status`: a forced answer the contract documents for every matched operation, with an error's
 * `code` and `message`, or a success `body` (checked at load against the answer's schema, not
 * first on a request, where the validator would turn it into a 500).
 */
export const statusKind: RuleKind<StatusFields> = {
  name: 'status',
  answers: true,
  keys: {
    status: {
      problem: 'status must be an HTTP status code',
      schema: {
        description: 'A status the contract documents for every matched operation.',
        type: 'integer',
        minimum: 100,
        maximum: 599,
      },
    },
    code: {
      problem: 'code must be a non-empty string',
      schema: {
        description: 'For an error status: the error code (default from the status).',
        ...TEXT,
      },
    },
    message: {
      problem: 'message must be a non-empty string',
      schema: {
        description: 'For an error status: the message (default from the status).',
        ...TEXT,
      },
    },
    body: {
      problem: 'body must be JSON',
      schema: { description: "For a 2xx: the answer's body; must match the response schema." },
    },
  },
  fit({ status, body }, contract) {
    if (typeof status !== 'number') return undefined;
    return {
      fits: (op) =>
        canForce(op, status) &&
        (body === undefined || bodyProblems(contract, op, status, body).length === 0),
      noneFits: `status ${status} is not documented for any operation`,
    };
  },
  parse(raw, { contract, operations }) {
    const fields: { -readonly [K in keyof StatusFields]: StatusFields[K] } = {};
    const { status } = raw;
    if (status !== undefined) {
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
        throw new RuleError('status must be an HTTP status code');
      }
      for (const op of operations) {
        if (!canForce(op, status)) {
          throw new RuleError(
            `status ${status} is not documented for ${op.name} (documented: ${documentedStatuses(op)})`,
          );
        }
      }
      fields.status = status;
    }
    if (raw.code !== undefined) fields.code = textOf('code', raw.code, fields.status);
    if (raw.message !== undefined) fields.message = textOf('message', raw.message, fields.status);
    if (raw.body !== undefined) {
      if (fields.status === undefined || fields.status >= 300) {
        throw new RuleError('body needs a success status (2xx)');
      }
      for (const op of operations) {
        const problems = bodyProblems(contract, op, fields.status, raw.body);
        if (problems.length > 0) {
          throw new RuleError(
            `body does not match the ${fields.status} answer of ${op.name}: ${problems.join('; ')}`,
          );
        }
      }
      fields.body = raw.body;
    }
    return fields;
  },
  async apply({ status, code, message, body }, exchange) {
    if (status === undefined) return true;
    // A forced success without a body: the store (or the contract) answers it itself.
    if (status < 300 && body === undefined) exchange.passOn(status);
    else if (status < 300) exchange.send(status, body);
    else await exchange.refuse(status, { code, message });
    return false;
  },
};
