import { error as validatorErrors } from 'express-openapi-validator';
import { isRecord } from '../util/is-record.js';
import { quoteText, truncate } from '../util/quote-text.js';
import { Refusal } from '../util/refusal.js';
import { HttpError } from './http-error.js';
import { NotAcceptableError } from '../contract/contract-answers.js';

/** What the error mapping needs to know of the request that failed. */
export interface FailedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  /** Whether the request came with a body at all (Content-Length > 0 or chunked). */
  hasBody: boolean;
  bodyLimit: string;
  /** The contract's name of a path parameter the validator knows by another (`user_id`). */
  pathParameterName?: ((name: string) => string) | undefined;
}

/** One way a request or an answer broke its contract, as express-openapi-validator reports it. */
export interface Violation {
  /** Where: `/query/limit`, `/body/name`, `/response/0/id`. */
  readonly path: string;
  readonly message: string;
  /** Ajv's keyword as `<keyword>.openapi.validation`; absent for the validator's own checks. */
  readonly errorCode?: string | undefined;
}

const MAX_ITEMS = 5;
const MAX_NAME = 64;
const LOCATIONS: Readonly<Record<string, string>> = {
  query: 'query parameter',
  params: 'path parameter',
  path: 'path parameter',
  headers: 'header',
  body: 'body field',
};
/** Where a violation means a parameter outside the contract (the contract documents no 400). */
const PARAMETER_LOCATIONS: ReadonlySet<string> = new Set(['query', 'params', 'path']);

function locationOf(path: string): { location: string; name: string } {
  const [location = '', ...rest] = path.replace(/^\.?\/?/, '').split(/[/.]/);
  // Names come from the client (an unknown parameter's name): never echo them unbounded.
  return { location, name: truncate(rest.join('.'), MAX_NAME) };
}

/** `/query/limit` + `must be <= 100` → `query parameter 'limit' must be <= 100`. */
function describeItem(
  { path, message, errorCode }: Violation,
  pathParameterName: (name: string) => string = (name) => name,
): string {
  const { location, name: written } = locationOf(path);
  const name = location === 'params' || location === 'path' ? pathParameterName(written) : written;
  const where = LOCATIONS[location];
  // The validator's own checks (an empty query value, an unknown parameter) word their whole
  // message, which may quote a name the client sent: bounded like our own.
  if (errorCode === undefined) return truncate(message, MAX_NAME * 2);
  // A body checked on its own (a discriminator's schema) is reported without its location.
  if (where === undefined)
    return path === '' ? message : `'${truncate(path, MAX_NAME)}' ${message}`;
  if (location === 'body' && name === '') return `the body ${message}`;
  if (errorCode === 'required.openapi.validation') return `${where} '${name}' is required`;
  return `${where} '${name}' ${message}`;
}

function badRequestMessage(
  items: readonly Violation[],
  fallback: string,
  pathParameterName?: (name: string) => string,
): string {
  if (items.length === 0) return fallback;
  const described = items.slice(0, MAX_ITEMS).map((item) => describeItem(item, pathParameterName));
  const more = items.length > MAX_ITEMS ? ` (and ${items.length - MAX_ITEMS} more)` : '';
  const outsideContract = items.some((item) =>
    PARAMETER_LOCATIONS.has(locationOf(item.path).location),
  )
    ? ': the value is outside the contract'
    : '';
  const text = described.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${more}${outsideContract}.`;
}

/** A 400 naming each way the request broke the contract. */
export function requestViolation(
  items: readonly Violation[],
  fallback = '',
  pathParameterName?: (name: string) => string,
): HttpError {
  const message = badRequestMessage(items, fallback, pathParameterName);
  const details = items.map((item) => describeItem(item, pathParameterName));
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

/** The 502 of strict proxy mode: the real service's answer broke the contract, each way named. */
export function contractViolation(
  operationId: string,
  status: number,
  violations: readonly string[],
): HttpError {
  const more = violations.length > MAX_ITEMS ? ` (and ${violations.length - MAX_ITEMS} more)` : '';
  return new HttpError(
    502,
    'contract_violation',
    `The real service's answer to ${operationId} (status ${status}) broke the contract: ${violations
      .slice(0, MAX_ITEMS)
      .join('; ')}${more}.`,
    {},
    violations,
  );
}

/** The 502 for a real service that refused the connection, failed, or did not answer in time. */
export function upstreamUnreachable(target: string, reason: string): HttpError {
  return new HttpError(
    502,
    'upstream_unreachable',
    `The real service at ${target} could not be reached: ${reason}.`,
  );
}

/** The 404 for a path under an API's base path that no operation of its contract has. */
export function noOperation(method: string, path: string): HttpError {
  return new HttpError(
    404,
    'not_found',
    `No operation of the contract matches ${method} ${quoteText(path)}.`,
  );
}

/** The 405 for a path of the contract asked with a method it does not have. */
export function methodNotAllowed(method: string, path: string, allowed: string): HttpError {
  const allow = allowed.toUpperCase();
  return new HttpError(
    405,
    'method_not_allowed',
    `Method ${method} is not allowed on ${quoteText(path)}; allowed: ${allow}.`,
    { Allow: allow },
  );
}

/**
 * The validator's 415, for a body it cannot take: the body-type step (checkBodyType) refuses
 * what the contract does not document before the validator runs, so this is what is left.
 */
function unsupportedBody(contentType: string | undefined): HttpError {
  return new HttpError(
    415,
    'unsupported_media_type',
    `The body's media type ${quoteText(contentType ?? 'none')} is not one the operation takes.`,
  );
}

function payloadTooLarge(request: FailedRequest): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than the limit of ${request.bodyLimit}.`,
  );
}

/** express-openapi-validator's errors, told apart by their class. */
function fromValidator(error: Error, request: FailedRequest): HttpError | undefined {
  const items = 'errors' in error && Array.isArray(error.errors) ? violationsOf(error.errors) : [];
  if (error instanceof validatorErrors.BadRequest) {
    return requestViolation(items, error.message, request.pathParameterName);
  }
  if (error instanceof validatorErrors.NotFound) return noOperation(request.method, request.path);
  if (error instanceof validatorErrors.MethodNotAllowed) {
    const allow = 'headers' in error && isRecord(error.headers) ? error.headers.Allow : undefined;
    return methodNotAllowed(request.method, request.path, typeof allow === 'string' ? allow : '');
  }
  if (error instanceof validatorErrors.NotAcceptable) {
    // Met only for JSON: checkAccept refuses other Accepts before the validator runs.
    const refusal = new NotAcceptableError(['application/json']);
    return new HttpError(refusal.status, refusal.code, refusal.message);
  }
  if (error instanceof validatorErrors.RequestEntityTooLarge) return payloadTooLarge(request);
  if (error instanceof validatorErrors.UnsupportedMediaType) {
    return unsupportedBody(request.contentType);
  }
  if (error instanceof validatorErrors.InternalServerError) return responseViolation(items);
  return undefined;
}

function violationsOf(items: readonly unknown[]): Violation[] {
  return items.filter(isRecord).map((item) => ({
    path: typeof item.path === 'string' ? item.path : '',
    message: typeof item.message === 'string' ? item.message : 'is invalid',
    errorCode: typeof item.errorCode === 'string' ? item.errorCode : undefined,
  }));
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
  // The mock's own rules (scenarios, sessions, budgets) carry their answer.
  if (error instanceof Refusal) {
    return new HttpError(error.status, error.code, error.message, error.headers);
  }
  if (error instanceof Error) {
    const known = fromValidator(error, request);
    if (known) return known;
  }
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
