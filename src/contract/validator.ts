import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './openapi-document.js';

/**
 * express-openapi-validator over the contract: request validation (parameters, body, content
 * type, unknown paths and methods) and response validation of every body sent with res.json.
 * Security is not checked here: bearer auth runs earlier, so that it comes before everything.
 */
export function createContractValidator(document: OpenApiDocument): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator annotates the document it is given; it gets its own copy.
    apiSpec: structuredClone(document),
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: true,
    validateSecurity: false,
    ignoreUndocumented: false,
  });
}
