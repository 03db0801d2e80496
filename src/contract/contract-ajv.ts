import { Ajv } from 'ajv';
import type { OpenApiDocument } from './openapi-document.js';

/** The id under which a contract's components are registered: refs read `contract#/components/…`. */
export const CONTRACT_ID = 'contract';

// Compared as doubles: int64 values reach the schema rounded (see validationView), and their
// exactness is checked on the exact values (isInt64).
const INT64_BOUND = 2 ** 63;
const INT32_BOUND = 2 ** 31;

/**
 * An Ajv for a contract's schemas: OpenAPI's integer formats, the document's components
 * registered under CONTRACT_ID, all errors reported. No meta-schema check of the schemas
 * (Redocly lints the contract in npm test): it would compile the meta-schema first, 20-30 ms.
 * `coerceTypes` is for parameters, which come as text.
 */
export function createContractAjv(document: OpenApiDocument, coerceTypes = false): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes,
    logger: false,
    validateSchema: false,
  });
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -INT64_BOUND && n <= INT64_BOUND,
  });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -INT32_BOUND && n < INT32_BOUND,
  });
  ajv.addSchema({ $id: CONTRACT_ID, components: document.components ?? {} });
  return ajv;
}
