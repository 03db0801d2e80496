import { Router, type Request, type RequestHandler } from 'express';
import { middleware } from 'express-openapi-validator';
import { unknownFormatsOf } from '../contract/contract-ajv.js';
import { isOpenApiDocument, type OpenApiDocument } from '../contract/openapi-document.js';

/** A document as express-openapi-validator types it (from its public `middleware` signature). */
type ValidatorDocument = Exclude<Parameters<typeof middleware>[0]['apiSpec'], string>;

/** The same outline check, for the validator's own type of document. */
function isValidatorDocument(value: unknown): value is ValidatorDocument {
  return isOpenApiDocument(value);
}

/** One way an answer breaks the contract, as express-openapi-validator reports it. */
export interface AnswerBreach {
  /** Where: `/response/0/status`. */
  readonly path: string;
  readonly message: string;
}

/** Told of an answer that breaks the contract, before it is sent; see ContractValidatorOptions. */
export type AnswerBreachListener = (req: Request, breaches: readonly AnswerBreach[]) => boolean;

export interface ContractValidatorOptions {
  /**
   * Told of each answer that breaks the contract: true sends it as it is (an answer relayed from
   * the real service, which the listener journals), false leaves the breach to the error handler
   * as a 500 (a bug in the mock); a thrown error is answered instead.
   */
  onAnswerBreach?: AnswerBreachListener | undefined;
}

/** What one document's validator is built as: whether answers' breaches are heard. */
type ValidatorKind = 'strict' | 'heard';

/**
 * The validators built in this process, per document (the contract's validatorDocument, one
 * object per loaded contract) and kind: every app over the same contract — a second in-process
 * mock, a reload that changed no contract, the tests' many apps — reuses them, and with them the
 * per-route schemas compiled so far. express-openapi-validator compiles the OpenAPI meta-schema
 * for every instance (validateApiSpec off or not), 80 to 300 ms each. Process-wide because the
 * apps that share them are built apart (two startMockServer calls know nothing of each other);
 * weak, so a contract no app serves any more takes its validators with it. What
 * express-openapi-validator keeps per instance is per document (its route cache) or per request,
 * but one thing: it installs its app.param hooks on the first app it serves only, which is
 * harmless here because the mock declares no route parameters on an app (its routes are the
 * validator's own, in mounted routers).
 */
const builtValidators = new WeakMap<OpenApiDocument, Map<ValidatorKind, RequestHandler[]>>();

/** The listener each request's answer is heard by, set by the step before the validator. */
const listeners = new WeakMap<Request, AnswerBreachListener>();

function buildValidator(document: OpenApiDocument, kind: ValidatorKind): RequestHandler[] {
  // Paths are matched on the router's own URL (`/pets`, below the mount point), so the mock can
  // itself be mounted anywhere: its servers (`{base_url}` ending in /v1) become the root here.
  const apiSpec: unknown = { ...document, servers: [{ url: '/' }] };
  if (!isValidatorDocument(apiSpec)) throw new Error('not an OpenAPI 3.0 document');
  return middleware({
    apiSpec,
    useRequestUrl: true,
    validateRequests: { allowUnknownQueryParameters: false },
    // The validator's own hook: when onError returns, it sends the answer unchanged; what it
    // throws goes to next(), as a breach does without the hook. A relayed answer's breaches are
    // all named, not only the first.
    validateResponses:
      kind === 'heard'
        ? {
            allErrors: true,
            onError: (error, _body, req) => {
              const listener = listeners.get(req);
              if (!listener?.(req, error.errors)) throw error;
            },
          }
        : true,
    validateSecurity: false,
    // Linted by Redocly in the test command; checked against the OpenAPI meta-schema at every
    // start it would only add start-up time.
    validateApiSpec: false,
    // Multipart bodies are read before it (api/read-body.ts), within the mock's body limit.
    fileUploader: false,
    // Formats the contract names that no standard defines are annotations: accepted as they are.
    formats: Object.fromEntries(unknownFormatsOf(document).map((name) => [name, true])),
  });
}

/** The document's validator of that kind, built on the first call in this process. */
function validatorOf(document: OpenApiDocument, kind: ValidatorKind): RequestHandler[] {
  let kinds = builtValidators.get(document);
  if (!kinds) {
    kinds = new Map();
    builtValidators.set(document, kinds);
  }
  let handlers = kinds.get(kind);
  if (!handlers) {
    handlers = buildValidator(document, kind);
    kinds.set(kind, handlers);
  }
  return handlers;
}

/**
 * express-openapi-validator over one API's document, for a router mounted at that API's base
 * path: it validates each request (parameters, body, content type) and every answer sent with
 * res.json (a breach goes to the error handler as a 500, unless onAnswerBreach lets it through).
 * Security is checked earlier, by our own step, so that auth comes before everything else.
 * Built once per document in this process (validatorOf); an app's onAnswerBreach is handed to it
 * per request.
 */
export function createContractValidator(
  document: OpenApiDocument,
  { onAnswerBreach }: ContractValidatorOptions = {},
): RequestHandler[] {
  if (!onAnswerBreach) return validatorOf(document, 'strict');
  const hearBreaches: RequestHandler = (req, _res, next) => {
    listeners.set(req, onAnswerBreach);
    next();
  };
  return [hearBreaches, ...validatorOf(document, 'heard')];
}

/**
 * The same validator, built on the first request it sees: for the admin API, which the first pet
 * API answer should not wait for. express-openapi-validator compiles the OpenAPI meta-schema for
 * every document it loads, validateApiSpec off or not, and that is about a seventh of the CPU a
 * start takes to its first answer.
 */
export function createLazyContractValidator(document: OpenApiDocument): RequestHandler {
  let validator: Router | undefined;
  return function validateContract(req, res, next) {
    validator ??= Router().use(validatorOf(document, 'strict'));
    validator(req, res, next);
  };
}
