import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error.js';
import { MAX_JSON_DEPTH, MAX_QUERY_PARAMETERS } from '../http/limits.js';
import { methodNotAllowed, noOperation } from '../http/to-http-error.js';
import { charsetOf, cookiesOf, hasBody } from '../http/request-parts.js';
import { requestMediaOf } from '../contract/document-parts.js';
import { essenceOf, kindOf } from '../contract/media-types.js';
import { documentsStatus, routeOf, type StyledParameter } from '../contract/operation-index.js';
import type { AnswerCheck } from '../contract/answer-check.js';
import { coerceFields } from '../contract/form-fields.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import { jsonDepthExceeds, parseJson, validationView } from '../util/json-codec.js';
import { errorMessage } from '../util/error-message.js';
import { quoteText, truncate } from '../util/quote-text.js';
import type { PetCalls } from '../http/pet-call.js';

// The checks of a pet API request that express-openapi-validator does not make, or makes later
// than the contract wants: each one step, run before the validator (see app.ts for the order).

const DECIMAL_INTEGER = /^-?\d+$/;
const MAX_NAME = 64;

/** A 400 for a query (or path) parameter the contract does not allow, naming it. */
function queryOutsideContract(name: string, problem: string, where = 'Query parameter'): HttpError {
  return new HttpError(
    400,
    'bad_request',
    `${where} '${truncate(name, MAX_NAME)}' ${problem}: the value is outside the contract.`,
  );
}

/**
 * 404 for a path no operation has, 405 (with Allow) for a method its path does not have:
 * decided from the method and path alone, before any body is read.
 */
export function findOperation(calls: PetCalls): RequestHandler {
  return function findOperation(req, _res, next) {
    const call = calls.of(req);
    const { match, method, path } = call;
    if (!match) throw noOperation(method, path);
    if (!match.operation) throw methodNotAllowed(method, path, match.allowed.join(', '));
    const params: Record<string, string> = {};
    // A URIError (malformed percent-encoding) is answered 400.
    for (const [name, value] of Object.entries(match.params))
      params[name] = decodeURIComponent(value);
    call.params = params;
    next();
  };
}

/**
 * Parses the JSON text express.text read, without losing int64 digits: integers beyond 2^53
 * become bigints in the call's exact body, while the validator gets req.body as a view with
 * rounded numbers (its int64 check compares doubles; the handlers check the exact values).
 */
export function parseJsonExactly(calls: PetCalls): RequestHandler {
  return function parseJsonExactly(req, _res, next) {
    const text: unknown = req.body;
    if (typeof text !== 'string' || text.trim() === '') {
      req.body = undefined;
      next();
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      throw new HttpError(
        400,
        'bad_request',
        `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      );
    }
    let exact: unknown;
    try {
      // Strict: the lossless parser, which also refuses duplicate keys.
      exact = parseJson(text, true);
    } catch (error) {
      const reason = errorMessage(error).slice(0, 120);
      throw new HttpError(400, 'bad_request', `The request body is not valid JSON: ${reason}`);
    }
    calls.of(req).body = exact;
    req.body = validationView(exact);
    next();
  };
}

/**
 * A text body in a charset other than UTF-8, the only one JSON has (RFC 8259 §8.1) and the one the
 * mock reads forms and text in: 400, instead of being decoded into other characters and stored.
 */
export function requireUtf8(calls: PetCalls): RequestHandler {
  return function requireUtf8(req, _res, next) {
    const charset = charsetOf(req);
    const type = req.headers['content-type'] ?? 'application/json';
    const textual = !['binary', 'multipart'].includes(kindOf(type));
    if (charset !== undefined && charset !== 'utf-8' && textual && hasBody(req)) {
      // Named by the one type the operation takes, where it takes one (the Pet Store's JSON).
      const documented = calls.of(req).match?.operation?.requestBody?.mediaTypes ?? [];
      const named = documented.length === 1 ? (documented[0] ?? '') : essenceOf(type);
      throw new HttpError(
        400,
        'unsupported_media_type',
        `The body must be ${named} in UTF-8, not ${quoteText(charset)}.`,
      );
    }
    next();
  };
}

/** The media types an operation takes, in words: `application/json` or `a, b or c`. */
function typesInWords(types: readonly string[]): string {
  return types.length <= 1
    ? (types[0] ?? 'none')
    : `${types.slice(0, -1).join(', ')} or ${types.at(-1) ?? ''}`;
}

/**
 * The body's media type against those the operation documents, before any body is read: a body
 * of another type is refused naming those it takes (415, or the contract's 400 where it documents
 * a 400 and no 415: the Pet Store's), and a required body that is missing is a 400. The validator
 * would say 415 for both, even for the missing body.
 */
export function checkBodyType(calls: PetCalls): RequestHandler {
  return function checkBodyType(req, _res, next) {
    const op = calls.of(req).match?.operation;
    const body = op?.requestBody;
    if (!op || !body) {
      next();
      return;
    }
    const types = body.mediaTypes;
    const jsonOnly = types.length === 1 && types[0] === 'application/json';
    if (!hasBody(req)) {
      if (!body.required) {
        // An optional body left out: the validator, given its Content-Type, would ask for it.
        delete req.headers['content-type'];
        next();
        return;
      }
      throw new HttpError(
        400,
        'bad_request',
        `The request body is required: ${jsonOnly ? 'a JSON object' : typesInWords(types)}.`,
      );
    }
    const type = req.headers['content-type'];
    if (type !== undefined && requestMediaOf(op, type) !== undefined) {
      next();
      return;
    }
    const status = documentsStatus(op, 415) || !documentsStatus(op, 400) ? 415 : 400;
    throw new HttpError(
      status,
      'unsupported_media_type',
      `The body must be ${types.length === 1 ? typesInWords(types) : `one of ${typesInWords(types)}`}, not ${quoteText(type ?? 'none')}.`,
    );
  };
}

/**
 * The query: at most MAX_QUERY_PARAMETERS parameters, a budget the validator has no notion of,
 * and integers written as decimal integers: the validator coerces with Number(), which reads
 * `0x10`, `1e2`, ` 5` as numbers. (Names the contract lacks are the validator's to refuse.)
 */
export function checkQuery(calls: PetCalls): RequestHandler {
  return function checkQuery(req, _res, next) {
    const op = calls.of(req).match?.operation;
    const at = req.originalUrl.indexOf('?');
    if (!op || at < 0) {
      next();
      return;
    }
    let count = 1;
    for (
      let i = req.originalUrl.indexOf('&', at);
      i >= 0;
      i = req.originalUrl.indexOf('&', i + 1)
    ) {
      count += 1;
    }
    if (count > MAX_QUERY_PARAMETERS) {
      throw new HttpError(
        400,
        'bad_request',
        `Too many query parameters: at most ${MAX_QUERY_PARAMETERS} are read.`,
      );
    }
    const query: Record<string, unknown> = req.query;
    for (const name of op.integerQueryParameters) {
      const value = query[name];
      if (value !== undefined && (typeof value !== 'string' || !DECIMAL_INTEGER.test(value))) {
        throw queryOutsideContract(name, 'must be one decimal integer');
      }
    }
    next();
  };
}

/**
 * A HEAD the contract does not document is answered as the GET of its path (node sends no body
 * for it): the validator knows only the document's methods.
 */
export function answerHeadAsGet(calls: PetCalls): RequestHandler {
  return function answerHeadAsGet(req, _res, next) {
    if (req.method === 'HEAD' && calls.of(req).match?.operation?.method === 'GET') {
      req.method = 'GET';
    }
    next();
  };
}

/**
 * The request's cookies as `req.cookies`, where the validator reads cookie parameters (Express
 * parses none itself).
 */
export const readCookies: RequestHandler = function readCookies(req, _res, next) {
  req.cookies = cookiesOf(req.headers.cookie);
  next();
};

/** A `label` (`.a.b`) or `matrix` (`;id=a;id=b`) path value as `simple` style writes it (`a,b`). */
export function simpleStyleOf(raw: string, parameter: StyledParameter): string {
  if (parameter.style === 'simple') return raw;
  if (parameter.style === 'label') {
    const value = raw.startsWith('.') ? raw.slice(1) : raw;
    return parameter.explode ? value.split('.').join(',') : value;
  }
  const parts = raw.split(';').filter((part) => part !== '');
  // An exploded object is its pairs (`role=admin,name=Alex`); otherwise the values after `name=`.
  if (parameter.kind === 'object' && parameter.explode) return parts.join(',');
  return parts.map((part) => part.slice(part.indexOf('=') + 1)).join(',');
}

/** A simple-style object value: `role,admin,name,Alex`, or exploded `role=admin,name=Alex`. */
function objectOf(simple: string, explode: boolean): Record<string, string> {
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const parts = simple === '' ? [] : simple.split(',').map(decode);
  const object: Record<string, string> = {};
  if (explode) {
    for (const pair of parts) {
      const eq = pair.indexOf('=');
      object[eq < 0 ? pair : pair.slice(0, eq)] = eq < 0 ? '' : pair.slice(eq + 1);
    }
  } else {
    for (let i = 0; i + 1 < parts.length; i += 2) object[parts[i] ?? ''] = parts[i + 1] ?? '';
  }
  return object;
}

/**
 * Path parameters the validator cannot read as written, read here: `label` and `matrix` values
 * rewritten in the path as `simple` style, which it reads (validator-view.ts tells it so); and
 * objects, which it reads in no style, checked here against their schema (the validator is told
 * they are text).
 */
export function readStyledPath(
  calls: PetCalls,
  document: OpenApiDocument,
  check: AnswerCheck,
): RequestHandler {
  return function readStyledPath(req, _res, next) {
    const { match } = calls.of(req);
    const op = match?.operation;
    if (!match || !op || op.styledPathParameters.length === 0) {
      next();
      return;
    }
    let path = routeOf(op.pathKey);
    for (const [name, value] of Object.entries(match.params)) {
      const styled = op.styledPathParameters.find((parameter) => parameter.name === name);
      const simple = styled ? simpleStyleOf(value, styled) : value;
      if (styled?.kind === 'object') {
        const object = coerceFields(
          document,
          { schema: styled.schema, encoding: {} },
          objectOf(simple, styled.explode),
        );
        const [problem] = check(styled.schema, object);
        if (problem !== undefined) {
          throw queryOutsideContract(name, problem.replace(/^\S+\s/, ''), 'Path parameter');
        }
      }
      // A function: a client's `$&` or `$'` is text, not a replacement pattern.
      path = path.replace(`{${name}}`, () => simple);
    }
    const query = req.url.indexOf('?');
    req.url = query < 0 ? path : `${path}${req.url.slice(query)}`;
    next();
  };
}
