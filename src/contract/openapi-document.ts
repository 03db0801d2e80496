import { isRecord } from '../util/is-record.js';

/** A server of an OpenAPI document: a URL, perhaps with variables and their defaults. */
export interface OpenApiServer {
  readonly url: string;
  readonly variables?: Readonly<Record<string, { readonly default: string }>>;
}

/**
 * An OpenAPI 3.0 document, as far as the mock itself reads it; express-openapi-validator reads
 * the rest (validator.ts).
 */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Readonly<Record<string, unknown>>;
  readonly paths: Readonly<Record<string, unknown>>;
  readonly servers?: readonly OpenApiServer[];
  readonly components?: Readonly<Record<string, unknown>>;
}

function isServer(value: unknown): value is OpenApiServer {
  if (!isRecord(value) || typeof value.url !== 'string') return false;
  const { variables } = value;
  return (
    variables === undefined ||
    (isRecord(variables) &&
      Object.values(variables).every((v) => isRecord(v) && typeof v.default === 'string'))
  );
}

/** Checks the outline of an OpenAPI 3.0 document; the validator checks the rest when it loads it. */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    value.openapi.startsWith('3.0') &&
    isRecord(value.info) &&
    isRecord(value.paths) &&
    (value.servers === undefined ||
      (Array.isArray(value.servers) && value.servers.every(isServer))) &&
    (value.components === undefined || isRecord(value.components))
  );
}
