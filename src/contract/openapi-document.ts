import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';

export type OpenApiDocument = OpenAPIV3.DocumentV3;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the outline of an OpenAPI 3.0 document; the validator checks the rest when it loads it. */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    value.openapi.startsWith('3.0') &&
    isRecord(value.info) &&
    isRecord(value.paths)
  );
}

export { isRecord };
