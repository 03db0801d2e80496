import { isRecord } from '../util/is-record.js';

/** A server of an OpenAPI document: a URL, perhaps with variables and their defaults. */
export interface OpenApiServer {
  readonly url: string;
  readonly variables?: Readonly<Record<string, { readonly default: string }>>;
}

/**
 * An OpenAPI 3.0 or 3.1 document, as far as the mock itself reads it; express-openapi-validator reads
 * the rest (validator.ts).
 */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Readonly<Record<string, unknown>>;
  readonly paths: Readonly<Record<string, unknown>>;
  readonly servers?: readonly OpenApiServer[];
  readonly components?: Readonly<Record<string, unknown>>;
  /** Who may call every operation that says nothing of its own. */
  readonly security?: unknown;
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

/** Checks the outline of an OpenAPI 3.0 or 3.1 document; the validator reads the rest. */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    /^3\.[01]\./.test(value.openapi) &&
    isRecord(value.info) &&
    isRecord(value.paths) &&
    (value.servers === undefined ||
      (Array.isArray(value.servers) && value.servers.every(isServer))) &&
    (value.components === undefined || isRecord(value.components))
  );
}
