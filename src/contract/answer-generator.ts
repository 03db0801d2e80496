import type { Faker } from '@faker-js/faker';
import { Refusal } from '../util/refusal.js';
import type { AnswerCheck } from './answer-check.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { Operation } from './operation-index.js';
import { SchemaFaker } from './schema-faker.js';
import { SchemaError } from './schema-refs.js';
import { withoutWriteOnly } from './write-only.js';

/** An operation whose answer the mock cannot take from the contract: a 500 that says why. */
export class ContractAnswerError extends Refusal {
  override name = 'ContractAnswerError';

  constructor(op: Operation, problem: string) {
    super(
      500,
      'internal_error',
      `The mock cannot answer ${op.name} from the contract: ${problem}.`,
    );
  }
}

/** Tries of a generated answer that the check refuses before giving up (each one differs). */
const TRIES = 5;
/** "Now" for faker's dates, fixed so that a seed gives the same dates on every day. */
const REFERENCE_DATE = new Date('2026-01-01T00:00:00Z');

/** FNV-1a: a stable 32-bit number for a text, to mix an operation's name into the seed. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash;
}

/** A faker of its own, loaded on the first generated answer (~0.4 s the first time). */
async function createFaker(): Promise<Faker> {
  const { Faker: FakerClass, base, en } = await import('@faker-js/faker');
  const faker = new FakerClass({ locale: [en, base] });
  faker.setDefaultRefDate(REFERENCE_DATE);
  return faker;
}

/** Data generated for a schema of an operation's answer (or a header of it), for a status. */
export type Generate = (op: Operation, status: number, schema: unknown) => Promise<unknown>;

/**
 * A value for a schema of the contract with a faker seeded from the seed mixed with `mix`: the
 * same seed and mix, the same value. Throws a SchemaError naming the place, or a plain Error with
 * the check's first problems, where no value keeps to the schema.
 */
export type GenerateValue = (
  schema: unknown,
  mix: readonly (string | number)[],
) => Promise<unknown>;

/**
 * Generates values for the schemas of a contract with a faker seeded from `seed` mixed with the
 * caller's parts (an operation's name and status, a resource's name and an item's place): the
 * same seed, the same data, on every run and machine. Each value is checked as the validator
 * checks answers; a value the check refuses is tried again, then the smallest value the schema
 * allows (empty lists, no optional property: what is left where a fuller one cannot be kept to).
 */
export function createValueGenerator(
  document: OpenApiDocument,
  check: AnswerCheck,
  seed: number,
): GenerateValue {
  let faker: Promise<Faker> | undefined;
  const matches = (s: unknown, v: unknown): boolean => check(s, v).length === 0;
  return async (schema, mix) => {
    faker ??= createFaker();
    const seeded = await faker;
    seeded.seed([seed, ...mix.map((part) => (typeof part === 'string' ? hashText(part) : part))]);
    const writer = new SchemaFaker(document, seeded, matches);
    let problems: readonly string[] = [];
    let failure: SchemaError | undefined;
    for (let i = 0; i < TRIES && failure === undefined; i += 1) {
      try {
        const value = withoutWriteOnly(document, schema, writer.fake(schema));
        problems = check(schema, value);
        if (problems.length === 0) return value;
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        failure = error;
      }
    }
    try {
      const smallest = withoutWriteOnly(
        document,
        schema,
        new SchemaFaker(document, seeded, matches, 0).fake(schema),
      );
      if (check(schema, smallest).length === 0) return smallest;
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
    }
    if (failure) throw failure;
    throw new Error(`no generated value kept to its schema (${problems.slice(0, 3).join('; ')})`);
  };
}

/**
 * Generates data for the schemas of a contract's answers, seeded with the operation's name and
 * the status (createValueGenerator). What no value keeps to is a ContractAnswerError naming the
 * operation and the place.
 */
export function createAnswerGenerator(generateValue: GenerateValue): Generate {
  return async (op, status, schema) => {
    try {
      return await generateValue(schema, [op.name, status]);
    } catch (error) {
      if (error instanceof SchemaError) throw error;
      throw new ContractAnswerError(op, error instanceof Error ? error.message : String(error));
    }
  };
}
