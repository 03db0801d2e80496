import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { CONTRACT_ID, createContractAjv } from './contract-ajv.js';
import { jsonSchemaOf, operationObject, parametersOf, resolved } from './document-parts.js';
import type { Operation } from './operation-index.js';
import { isRecord, type OpenApiDocument } from './openapi-document.js';

/** One way a request broke the contract: where (`/query/limit`) and what (`must be <= 100`). */
export interface Violation {
  readonly path: string;
  readonly message: string;
}

/** What of a request the contract speaks about, as read from the wire. */
export interface RequestParts {
  /** Path parameters, decoded. */
  readonly params: Record<string, unknown>;
  /** Query parameters as parsed; the checks write typed values back (e.g. `limit` as a number). */
  readonly query: Record<string, unknown>;
  /** The request's headers, names in lower case, as node gives them. */
  readonly headers: Readonly<Record<string, unknown>>;
  /** The body, as a JSON Schema validator can see it (see validationView); undefined for none. */
  readonly body: unknown;
}

/** The compiled checks of one operation. */
export interface OperationChecks {
  /** The request's violations of the contract; none when it keeps to it. */
  request(parts: RequestParts): Violation[];
  /** The violations of a JSON answer with this status (an undocumented status is one). */
  response(status: number, body: unknown): Violation[];
}

const MAX_VIOLATIONS = 20;
/** What the checks cannot honour: a contract using them is refused rather than half-checked. */
const UNSUPPORTED_KEYWORDS = ['readOnly', 'writeOnly', 'discriminator'];

/** A schema of the document with its local `$ref`s pointing into the registered document. */
function anchored(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchored);
  if (!isRecord(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${CONTRACT_ID}${value}`
        : anchored(value),
    ]),
  );
}

/** A schema of the document as Ajv takes it: anchored, and an object (or a boolean schema). */
function compilable(schema: unknown): Record<string, unknown> | boolean {
  const value = anchored(schema);
  return typeof value === 'boolean' || isRecord(value) ? value : {};
}

/** Throws if a value of the document (references followed) uses what the checks do not implement. */
function refuseUnsupported(document: OpenApiDocument, value: unknown, where: string): void {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    const node = resolved(document, value);
    if (seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) node.forEach(visit);
    if (!isRecord(node)) return;
    for (const keyword of UNSUPPORTED_KEYWORDS) {
      if (keyword in node) throw new Error(`${where}: the mock's checks do not support ${keyword}`);
    }
    if (node.in === 'cookie') throw new Error(`${where}: the mock's checks do not read cookies`);
    Object.values(node).forEach(visit);
  };
  visit(value);
}

/** Ajv's errors as violations located like `/query/limit`, `/body/name`, `/response/0/id`. */
function violationsOf(errors: readonly ErrorObject[], prefix: string): Violation[] {
  const found = new Map<string, Violation>();
  for (const e of errors) {
    const at = `${prefix}${e.instancePath}`;
    let violation: Violation;
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      violation = {
        path: `${at}/${e.params.missingProperty}`,
        message: e.message ?? 'is required',
      };
    } else if (
      e.keyword === 'additionalProperties' &&
      typeof e.params.additionalProperty === 'string' &&
      at === '/query'
    ) {
      const name = e.params.additionalProperty;
      violation = { path: `/query/${name}`, message: `Unknown query parameter '${name}'` };
    } else if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
      const allowed = e.params.allowedValues
        .map((v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)))
        .join(', ');
      violation = { path: at, message: `${e.message ?? 'is not allowed'}: ${allowed}` };
    } else {
      violation = { path: at, message: e.message ?? 'is invalid' };
    }
    // One violation per place: the first Ajv finds (e.g. `must be integer`, not also the format).
    if (!found.has(violation.path)) found.set(violation.path, violation);
    if (found.size === MAX_VIOLATIONS) break;
  }
  return [...found.values()];
}

function check(validate: ValidateFunction, value: unknown, prefix: string): Violation[] {
  return validate(value) ? [] : violationsOf(validate.errors ?? [], prefix);
}

interface Ajvs {
  /** For parameters, which come as text: coerces to the schema's types, in place. */
  readonly coercing: Ajv;
  /** For JSON bodies and answers: no coercion. */
  readonly exact: Ajv;
}

/** The JSON Schema of an operation's parameters, one object per location. */
function parametersSchema(document: OpenApiDocument, op: Operation): Record<string, unknown> {
  const locations = {
    params: { properties: {} as Record<string, unknown>, required: [] as string[] },
    query: { properties: {} as Record<string, unknown>, required: [] as string[] },
    headers: { properties: {} as Record<string, unknown>, required: [] as string[] },
  };
  for (const p of parametersOf(document, op.pathKey, op.method)) {
    const name = String(p.name);
    const location =
      p.in === 'path' ? locations.params : p.in === 'query' ? locations.query : locations.headers;
    const key = p.in === 'header' ? name.toLowerCase() : name;
    location.properties[key] = anchored(p.schema ?? {});
    if (p.required === true || p.in === 'path') location.required.push(key);
  }
  return {
    type: 'object',
    properties: {
      params: { type: 'object', ...locations.params },
      query: { type: 'object', ...locations.query, additionalProperties: false },
      headers: { type: 'object', ...locations.headers },
    },
  };
}

/** The documented answer for a status: exact (`201`), then its range (`2XX`), then `default`. */
function responseKeyOf(responses: Record<string, unknown>, status: number): string | undefined {
  return [String(status), `${Math.floor(status / 100)}XX`, 'default'].find(
    (key) => key in responses,
  );
}

function compile(document: OpenApiDocument, op: Operation, ajvs: Ajvs): OperationChecks {
  const operation = operationObject(document, op.pathKey, op.method) ?? {};
  // Parameters come as text: checked with coercion, which writes typed values back into the
  // objects given (after strict-query has refused what Number() would misread).
  const checkParameters = ajvs.coercing.compile(parametersSchema(document, op));
  const headerNames = parametersOf(document, op.pathKey, op.method)
    .filter((p) => p.in === 'header')
    .map((p) => String(p.name).toLowerCase());
  const bodySchema = jsonSchemaOf(document, operation.requestBody);
  const checkBody =
    bodySchema === undefined ? undefined : ajvs.exact.compile(compilable(bodySchema));

  const responses = isRecord(operation.responses) ? operation.responses : {};
  const responseChecks = new Map<string, ValidateFunction | null>();
  const responseCheck = (key: string): ValidateFunction | null => {
    let validate = responseChecks.get(key);
    if (validate === undefined) {
      const schema = jsonSchemaOf(document, responses[key]);
      validate = schema === undefined ? null : ajvs.exact.compile(compilable(schema));
      responseChecks.set(key, validate);
    }
    return validate;
  };

  return {
    request: ({ params, query, headers, body }) => {
      // Only the headers the contract names, copied: coercion must not write into the request.
      const named: Record<string, unknown> = {};
      for (const name of headerNames) if (headers[name] !== undefined) named[name] = headers[name];
      const found = check(checkParameters, { params, query, headers: named }, '');
      if (body === undefined) {
        if (op.requestBody?.required === true) {
          found.push({ path: '/body', message: "must have required property 'body'" });
        }
      } else if (checkBody) {
        found.push(...check(checkBody, body, '/body'));
      }
      return found;
    },
    response: (status, body) => {
      const key = responseKeyOf(responses, status);
      if (key === undefined) {
        return [
          {
            path: '/response',
            message: `status ${status} is not documented for ${op.operationId}`,
          },
        ];
      }
      const validate = responseCheck(key);
      if (validate === null) {
        return [{ path: '/response', message: `status ${status} documents no JSON body` }];
      }
      return check(validate, body, '/response');
    },
  };
}

/**
 * Compiles, per operation and on its first request, Ajv checks of its parameters, body and
 * answers from the contract: the only validation on the pet API's path. Each check is compiled
 * once. A contract using what the checks do not implement (readOnly, cookies...) is refused here,
 * at start, rather than half-checked.
 */
export function createOperationChecks(
  document: OpenApiDocument,
): (op: Operation) => OperationChecks {
  refuseUnsupported(document, document.paths, 'openapi.yaml');
  let ajvs: Ajvs | undefined;
  const compiled = new Map<string, OperationChecks>();
  return (op) => {
    let checks = compiled.get(op.operationId);
    if (!checks) {
      ajvs ??= { coercing: createContractAjv(document, true), exact: createContractAjv(document) };
      checks = compile(document, op, ajvs);
      compiled.set(op.operationId, checks);
    }
    return checks;
  };
}
