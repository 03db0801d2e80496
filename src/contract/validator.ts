import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './openapi-document.js';

/**
 * express-openapi-validator over a contract (the admin API's; the pet API has its own compiled
 * checks, see operation-checks.ts): request validation (parameters, body, content
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
    // openapi.yaml is linted by Redocly in the test command; checking it against the OpenAPI
    // meta-schema at every start would only add start-up time.
    validateApiSpec: false,
    ignoreUndocumented: false,
  });
}
