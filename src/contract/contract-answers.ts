import type { Faker } from '@faker-js/faker';
import { isRecord } from '../util/is-record.js';
import { Refusal } from '../util/refusal.js';
import { createAnswerCheck } from './answer-check.js';
import { operationObject, resolved } from './document-parts.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { Operation } from './operation-index.js';
import { SchemaFaker } from './schema-faker.js';
import { SchemaError, derefSchema } from './schema-refs.js';
import { reachesWriteOnly, withoutWriteOnly } from './write-only.js';

/** The header that tells a client where an answer from the contract came from (its source). */
export const ANSWER_SOURCE_HEADER = 'X-Mock-Answer';

/** Where an answer's body came from: the contract's example, or generated from its schema. */
export type AnswerSource = 'example' | 'generated';

/** The answer of an operation that no handler of the mock answers, as the contract documents it. */
export interface ContractAnswer {
  readonly status: number;
  /** The body; undefined for a success answer documented without content (204). */
  readonly body: unknown;
  readonly source: AnswerSource;
}

/** The answers the contract gives, and its rule that writeOnly properties are never answered. */
export interface ContractAnswers {
  /**
   * The operation's success answer: the lowest 2xx the contract documents, or `status` (a forced
   * one, e.g. `Prefer: code=202`). Built on first use, then the same for the same seed.
   */
  answer(op: Operation, status?: number): Promise<ContractAnswer>;
  /** A handler's body without the properties that the answer's schema marks writeOnly. */
  withoutWriteOnly(op: Operation, status: number, body: unknown): unknown;
}

/** An operation whose answer the mock cannot take from the contract: a 500 that says why. */
export class ContractAnswerError extends Refusal {
  override name = 'ContractAnswerError';

  constructor(op: Operation, problem: string) {
    super(
      500,
      'internal_error',
      `The mock cannot answer ${op.operationId} from the contract: ${problem}.`,
    );
  }
}

/** Tries of a generated answer that the check refuses before giving up (each one differs). */
const TRIES = 5;
/** "Now" for faker's dates, fixed so that a seed gives the same dates on every day. */
const REFERENCE_DATE = new Date('2026-01-01T00:00:00Z');
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** FNV-1a: a stable 32-bit number for a text, to mix an operationId into the seed. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash;
}

/** The documented answer for a status: exact (`201`), then its range (`2XX`), then `default`. */
function responseKeyOf(responses: Record<string, unknown>, status: number): string | undefined {
  return [String(status), `${Math.floor(status / 100)}XX`, 'default'].find(
    (key) => key in responses,
  );
}

/** The status of the success answer: the one asked for, or the lowest documented 2xx. */
function successStatusOf(responses: Record<string, unknown>): number | undefined {
  const statuses = Object.keys(responses)
    .map(Number)
    .filter((s) => Number.isInteger(s) && s >= 200 && s < 300);
  if (statuses.length > 0) return Math.min(...statuses);
  return '2XX' in responses || 'default' in responses ? 200 : undefined;
}

/** What the contract documents for one answer: its JSON media type object, if it has content. */
interface Documented {
  readonly status: number;
  /** The JSON media type object; undefined for an answer without content. */
  readonly media: Record<string, unknown> | undefined;
}

function documentedAnswer(
  document: OpenApiDocument,
  op: Operation,
  forced: number | undefined,
): Documented {
  const operation = operationObject(document, op.pathKey, op.method);
  const responses = isRecord(operation?.responses) ? operation.responses : {};
  const status = forced ?? successStatusOf(responses);
  if (status === undefined) throw new ContractAnswerError(op, 'it documents no success answer');
  const key = responseKeyOf(responses, status);
  const response = key === undefined ? undefined : resolved(document, responses[key]);
  if (!isRecord(response)) throw new ContractAnswerError(op, `it documents no ${status} answer`);
  const content = isRecord(response.content) ? response.content : {};
  const types = Object.keys(content);
  if (types.length === 0) return { status, media: undefined };
  const json = types.find((type) => JSON_MEDIA.test(type));
  const media = json === undefined ? undefined : content[json];
  if (!isRecord(media)) {
    throw new ContractAnswerError(
      op,
      `its ${status} answer is ${types.join(', ')}; the mock answers JSON only`,
    );
  }
  return { status, media };
}

/**
 * The example the contract gives for an answer: the media type's `example`, the first of its
 * `examples` that has a `value` (an `externalValue` is not fetched), or its schema's own.
 */
function exampleOf(
  document: OpenApiDocument,
  media: Record<string, unknown>,
): { value: unknown } | undefined {
  if ('example' in media) return { value: media.example };
  if (isRecord(media.examples)) {
    for (const entry of Object.values(media.examples)) {
      const example = resolved(document, entry);
      if (isRecord(example) && 'value' in example) return { value: example.value };
    }
  }
  const schema = derefSchema(document, media.schema, '/response');
  if (!isRecord(schema)) return undefined;
  if ('example' in schema) return { value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    return { value: schema.examples[0] };
  }
  return undefined;
}

/** A faker of its own, loaded on the first generated answer (~0.4 s the first time). */
async function createFaker(): Promise<Faker> {
  const { Faker: FakerClass, base, en } = await import('@faker-js/faker');
  const faker = new FakerClass({ locale: [en, base] });
  faker.setDefaultRefDate(REFERENCE_DATE);
  return faker;
}

/**
 * The answers of a contract's operations, taken from its examples or generated from its schemas
 * with a faker seeded from `seed` mixed with the operationId: the same seed, the same data, on
 * every run and machine. Each answer is built once, on first use; a new contract builds new ones.
 */
export function createContractAnswers(
  document: OpenApiDocument,
  { seed }: { seed: number },
): ContractAnswers {
  const check = createAnswerCheck(document);
  const answers = new Map<string, Promise<ContractAnswer>>();
  const writeOnlySchemas = new Map<string, unknown>();
  let faker: Promise<Faker> | undefined;

  async function generate(op: Operation, status: number, schema: unknown): Promise<unknown> {
    faker ??= createFaker();
    const seeded = await faker;
    seeded.seed([seed, hashText(op.operationId), status]);
    const writer = new SchemaFaker(document, seeded, (s, v) => check(s, v).length === 0);
    let problems: readonly string[] = [];
    for (let i = 0; i < TRIES; i += 1) {
      const value = withoutWriteOnly(document, schema, writer.fake(schema));
      problems = check(schema, value);
      if (problems.length === 0) return value;
    }
    throw new ContractAnswerError(
      op,
      `no generated answer kept to its schema (${problems.slice(0, 3).join('; ')})`,
    );
  }

  async function build(op: Operation, forced: number | undefined): Promise<ContractAnswer> {
    const { status, media } = documentedAnswer(document, op, forced);
    if (!media) return { status, body: undefined, source: 'example' };
    try {
      const example = exampleOf(document, media);
      if (example) {
        const body = withoutWriteOnly(document, media.schema, example.value);
        return { status, body, source: 'example' };
      }
      return { status, body: await generate(op, status, media.schema), source: 'generated' };
    } catch (error) {
      if (error instanceof SchemaError) throw new ContractAnswerError(op, error.message);
      throw error;
    }
  }

  /** The schema of an answer, if it has writeOnly properties to drop (looked up once). */
  function writeOnlySchemaOf(op: Operation, status: number): unknown {
    const key = `${op.operationId} ${status}`;
    if (!writeOnlySchemas.has(key)) {
      let schema: unknown;
      try {
        const { media } = documentedAnswer(document, op, status);
        schema = media && reachesWriteOnly(document, media.schema) ? media.schema : undefined;
      } catch {
        // An answer the contract does not document: the validator says so.
        schema = undefined;
      }
      writeOnlySchemas.set(key, schema);
    }
    return writeOnlySchemas.get(key);
  }

  return {
    answer: async (op, status) => {
      const key = `${op.operationId} ${status ?? 'success'}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = build(op, status);
        answers.set(key, answer);
      }
      const { body, ...rest } = await answer;
      // Each request gets its own copy of the cached body.
      return { ...rest, body: structuredClone(body) };
    },
    withoutWriteOnly: (op, status, body) => {
      const schema = writeOnlySchemaOf(op, status);
      return schema === undefined ? body : withoutWriteOnly(document, schema, body);
    },
  };
}
