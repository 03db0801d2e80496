import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats, { type FormatName } from 'ajv-formats';
import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';

/** What the mock asks of an Ajv of either JSON Schema draft. */
export type ContractAjv = Pick<Ajv, 'addFormat' | 'addSchema' | 'getSchema' | 'compile'>;

/** The id under which a contract's components are registered: refs read `contract#/components/…`. */
export const CONTRACT_ID = 'contract';

// Compared as doubles: int64 values reach the schema rounded (see validationView), and their
// exactness is checked on the exact values (isInt64, and checkInt64Range for answers).
const INT64_BOUND = 2 ** 63;
const INT32_BOUND = 2 ** 31;

/** OpenAPI's numeric formats, checked here; others come from ajv-formats. */
const NUMERIC_FORMATS = new Set(['int32', 'int64', 'float', 'double']);
const AJV_FORMATS: ReadonlySet<string> = new Set<FormatName>([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'binary',
  'password',
]);

function isFormatName(name: string): name is FormatName {
  return AJV_FORMATS.has(name);
}

/** The `format` values a document's schemas use (formats of other names are annotations). */
function formatsUsed(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) formatsUsed(item, found);
  else if (isRecord(value)) {
    if (typeof value.format === 'string') found.add(value.format);
    for (const child of Object.values(value)) formatsUsed(child, found);
  }
  return found;
}

/**
 * The formats a document's schemas use that neither JSON Schema nor OpenAPI defines (`uint64`,
 * `token`…): annotations, which validators are told to accept as they are.
 */
export function unknownFormatsOf(document: OpenApiDocument): string[] {
  return [...formatsUsed(document)].filter(
    (name) => !NUMERIC_FORMATS.has(name) && !isFormatName(name),
  );
}

/**
 * An Ajv for a contract's schemas: OpenAPI's numeric formats, the standard formats the document
 * uses, its components registered under CONTRACT_ID, all errors reported. No meta-schema check
 * of the schemas (Redocly lints the contract in npm test): it would compile the meta-schema
 * first, 20-30 ms. `coerceTypes` is for parameters, which come as text.
 */
export function createContractAjv(document: OpenApiDocument, coerceTypes = false): ContractAjv {
  const options = {
    strict: false,
    allErrors: true,
    coerceTypes,
    logger: false as const,
    validateSchema: false,
  };
  // 3.1's schemas are JSON Schema 2020-12 (prefixItems, $defs, const...), as the validator reads them.
  const ajv = document.openapi.startsWith('3.1') ? new Ajv2020(options) : new Ajv(options);
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -INT64_BOUND && n <= INT64_BOUND,
  });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -INT32_BOUND && n < INT32_BOUND,
  });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  const standard = [...formatsUsed(document)].filter(
    (name): name is FormatName => !NUMERIC_FORMATS.has(name) && isFormatName(name),
  );
  // A CommonJS module: node hands its exports object over as the default import.
  if (standard.length > 0) ajvFormats.default(ajv, standard);
  for (const name of unknownFormatsOf(document)) ajv.addFormat(name, true);
  ajv.addSchema({ $id: CONTRACT_ID, components: document.components ?? {} });
  return ajv;
}
