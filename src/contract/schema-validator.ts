import { Ajv, type ErrorObject } from 'ajv';
import type { OpenApiDocument } from './openapi-document.js';

/** Validates a value against one of the document's component schemas; returns the problems found. */
export type SchemaCheck = (value: unknown) => readonly string[];

const DOCUMENT_ID = 'contract';
// Compared as doubles: int64 values reach the schema rounded (see validationView), and their
// exactness is checked on the exact values (isInt64).
const INT64_BOUND = 2 ** 63;

function describe(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

function createAjv(document: OpenApiDocument): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -INT64_BOUND && n <= INT64_BOUND,
  });
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  return ajv;
}

/**
 * Compiles checks for the document's component schemas with a plain Ajv, independent of the
 * request validator: used to check fixtures and stored data before they are served. The Ajv is
 * built on the first check asked for (the admin document never asks: ~11 ms saved at start).
 */
export function createSchemaChecks(document: OpenApiDocument): (name: string) => SchemaCheck {
  let ajv: Ajv | undefined;
  return (name) => {
    ajv ??= createAjv(document);
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`the contract has no schema named ${name}`);
    return (value) => (validate(value) ? [] : describe(validate.errors ?? []));
  };
}
