import type { ErrorObject, ValidateFunction } from 'ajv';
import { isRecord } from '../util/is-record.js';
import { CONTRACT_ID, createContractAjv, type ContractAjv } from './contract-ajv.js';
import { jsonSchemaOf, operationObject, responseKeyOf } from './document-parts.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { Operation } from './operation-index.js';

/** Validates a value against one of the contract's schemas; returns the problems found. */
export type SchemaCheck = (value: unknown) => readonly string[];

/**
 * Checks of data the mock loads before serving it: fixtures, the --db file, scenario bodies.
 * Requests and answers themselves are validated by express-openapi-validator (validator.ts).
 */
export interface SchemaChecks {
  /** A component schema by name, e.g. `Pet`. */
  component(name: string): SchemaCheck;
  /**
   * The schema of an operation's documented answer with this status (exact, then `2XX`, then
   * `default`); undefined when the contract documents no JSON body for it.
   */
  answer(op: Operation, status: number): SchemaCheck | undefined;
}

function describe(errors: readonly ErrorObject[], prefix: string): string[] {
  return errors.map(
    (e) => `${prefix}${e.instancePath || (prefix === '' ? '/' : '')} ${e.message ?? 'is invalid'}`,
  );
}

/** A schema of the document with its local `$ref`s pointing into the registered document. */
function anchored(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchored);
  if (!isRecord(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${CONTRACT_ID}${value}`
        : anchored(value),
    ]),
  );
}

function toCheck(validate: ValidateFunction, prefix: string): SchemaCheck {
  return (value) => (validate(value) ? [] : describe(validate.errors ?? [], prefix));
}

/**
 * Compiles checks of the document's schemas (a document without examples: see Contract). The
 * document and the Ajv are made on the first check asked for (the admin document never asks).
 */
export function createSchemaChecks(documentOf: () => OpenApiDocument): SchemaChecks {
  let ajv: ContractAjv | undefined;
  const ajvOf = (): ContractAjv => (ajv ??= createContractAjv(documentOf()));
  return {
    component: (name) => {
      const validate = ajvOf().getSchema(`${CONTRACT_ID}#/components/schemas/${name}`);
      if (!validate) throw new Error(`the contract has no schema named ${name}`);
      return toCheck(validate, '');
    },
    answer: (op, status) => {
      const document = documentOf();
      const operation = operationObject(document, op.pathKey, op.method);
      const responses = isRecord(operation?.responses) ? operation.responses : {};
      const key = responseKeyOf(responses, status);
      const schema = key === undefined ? undefined : jsonSchemaOf(document, responses[key]);
      if (schema === undefined) return undefined;
      const compilable = anchored(schema);
      const validate = ajvOf().compile(isRecord(compilable) ? compilable : {});
      return toCheck(validate, '/response');
    },
  };
}
