import { isRecord } from '../contract/openapi-document.js';
import type { Violation } from '../contract/operation-checks.js';
import { HttpError, quoteInput, truncate } from './http-error.js';

/** What the error mapping needs to know of the request that failed. */
export interface FailedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  /** Whether the request came with a body at all (Content-Length > 0 or chunked). */
  hasBody: boolean;
  bodyLimit: string;
}

interface ValidatorError {
  status: number;
  message: string;
  errors: Violation[];
  headers: Record<string, string>;
}

const MAX_ITEMS = 5;
const LOCATIONS: Record<string, string> = {
  query: 'query parameter',
  params: 'path parameter',
  path: 'path parameter',
  headers: 'header',
  body: 'body field',
};

/** express-openapi-validator's errors carry a status and a list of items. */
function asValidatorError(error: unknown): ValidatorError | undefined {
  if (!isRecord(error) || typeof error.status !== 'number' || !Array.isArray(error.errors)) {
    return undefined;
  }
  const errors = error.errors.filter(isRecord).map((item) => ({
    path: typeof item.path === 'string' ? item.path : '',
    message: typeof item.message === 'string' ? item.message : 'is invalid',
  }));
  const headers: Record<string, string> = {};
  if (isRecord(error.headers)) {
    for (const [name, value] of Object.entries(error.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
  }
  const message = typeof error.message === 'string' ? error.message : '';
  return { status: error.status, message, errors, headers };
}

const MAX_NAME = 64;

/** `/query/limit` + `must be <= 100` → `query parameter 'limit' must be <= 100`. */
function describeItem({ path, message }: Violation): string {
  const [location = '', ...rest] = path.replace(/^\.?\/?/, '').split(/[/.]/);
  // Names come from the client (an unknown parameter's name): never echo them unbounded.
  const name = truncate(rest.join('.'), MAX_NAME);
  const where = LOCATIONS[location];
  if (where === undefined) return message;
  if (location === 'body' && (name === '' || name === 'body')) {
    return /required property 'body'/.test(message)
      ? 'the request body is required'
      : `the body ${message}`;
  }
  if (/^must have required property/.test(message)) return `${where} '${name}' is required`;
  if (/^Unknown query parameter/.test(message)) return `${where} '${name}' is not in the contract`;
  return `${where} '${name}' ${message}`;
}

function badRequestMessage(items: readonly Violation[], fallback: string): string {
  if (items.length === 0) return fallback;
  const described = items.slice(0, MAX_ITEMS).map(describeItem);
  const more = items.length > MAX_ITEMS ? ` (and ${items.length - MAX_ITEMS} more)` : '';
  const outsideContract = items.some((item) => /^\/?(query|params|path)\b/.test(item.path))
    ? ': the value is outside the contract'
    : '';
  const text = described.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${more}${outsideContract}.`;
}

/** A 400 naming each way the request broke the contract. */
export function requestViolation(items: readonly Violation[], fallback = ''): HttpError {
  const message = badRequestMessage(items, fallback);
  const details = items.map(describeItem);
  return new HttpError(400, 'bad_request', message, {}, details.length > 0 ? details : [message]);
}

/** The 500 for an answer the mock was about to send that breaks the contract (a bug). */
export function responseViolation(items: readonly Violation[]): HttpError {
  return new HttpError(
    500,
    'internal_error',
    `The mock's response broke the contract (a bug in the mock): ${items
      .map((item) => `${item.path} ${item.message}`)
      .join('; ')}.`,
  );
}

/** The 404 for a path under an API's base path that no operation of its contract has. */
export function noOperation(method: string, path: string): HttpError {
  return new HttpError(
    404,
    'not_found',
    `No operation of the contract matches ${method} ${quoteInput(path)}.`,
  );
}

/** The 405 for a path of the contract asked with a method it does not have. */
export function methodNotAllowed(method: string, path: string, allowed: string): HttpError {
  const allow = allowed.toUpperCase();
  return new HttpError(
    405,
    'method_not_allowed',
    `Method ${method} is not allowed on ${quoteInput(path)}; allowed: ${allow}.`,
    { Allow: allow },
  );
}

/** The 406 for an Accept header that excludes JSON. */
export function notAcceptable(): HttpError {
  return new HttpError(406, 'not_acceptable', 'The mock can only answer application/json.');
}

/** The 400 for a body that is missing or not JSON, where the operation wants one. */
export function unsupportedBody(
  hasBody: boolean,
  contentType: string | undefined,
  bodySchema: string,
): HttpError {
  if (!hasBody) {
    return new HttpError(400, 'bad_request', `The request body is required: a JSON ${bodySchema}.`);
  }
  return new HttpError(
    400,
    'unsupported_media_type',
    `The body must be application/json, not ${quoteInput(contentType ?? 'none')}.`,
  );
}

function fromValidator(error: ValidatorError, request: FailedRequest): HttpError {
  switch (error.status) {
    case 400:
      return requestViolation(error.errors, error.message);
    case 404:
      return noOperation(request.method, request.path);
    case 405:
      return methodNotAllowed(request.method, request.path, error.headers.Allow ?? '');
    case 406:
      return notAcceptable();
    case 413:
      return payloadTooLarge(request);
    case 415:
      return unsupportedBody(request.hasBody, request.contentType, 'body');
    case 500:
      return responseViolation(error.errors);
    default:
      return new HttpError(error.status >= 500 ? 500 : 400, 'bad_request', error.message);
  }
}

function payloadTooLarge(request: FailedRequest): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than the limit of ${request.bodyLimit}.`,
  );
}

/** body-parser's errors carry a `type` such as `entity.parse.failed`. */
function fromBodyParser(type: string, request: FailedRequest): HttpError {
  switch (type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'bad_request', 'The request body is not a valid JSON object.');
    case 'entity.too.large':
      return payloadTooLarge(request);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(
        400,
        'unsupported_media_type',
        'The body must be application/json in UTF-8, without content encoding.',
      );
    default:
      return new HttpError(400, 'bad_request', 'The request body could not be read.');
  }
}

/** Turns anything thrown or passed to next() into the one HttpError the handler answers with. */
export function toHttpError(error: unknown, request: FailedRequest): HttpError {
  if (error instanceof HttpError) return error;
  if (isRecord(error) && typeof error.type === 'string' && typeof error.status === 'number') {
    return fromBodyParser(error.type, request);
  }
  const validatorError = asValidatorError(error);
  if (validatorError) return fromValidator(validatorError, request);
  if (error instanceof URIError) {
    return new HttpError(400, 'bad_request', 'The request path is not valid percent-encoding.');
  }
  // Other client errors from Express's layers (e.g. a body not in its Content-Encoding).
  if (
    isRecord(error) &&
    typeof error.status === 'number' &&
    error.status >= 400 &&
    error.status < 500
  ) {
    return new HttpError(400, 'bad_request', 'The request could not be read.');
  }
  return new HttpError(500, 'internal_error', 'The mock failed while answering (see its log).');
}
