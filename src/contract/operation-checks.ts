import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { CONTRACT_ID, createContractAjv } from './contract-ajv.js';
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
  /** Query parameters as parsed; integer ones are replaced by numbers when they check. */
  readonly query: Record<string, unknown>;
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

/** Follows a `#/components/<kind>/<name>` reference of the document, once. */
function resolved(document: OpenApiDocument, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string') return value;
  const [, components, kind, name] = value.$ref.split('/');
  if (components !== 'components' || kind === undefined || name === undefined) return value;
  const group: unknown = Reflect.get(document.components ?? {}, kind);
  return isRecord(group) ? group[name] : undefined;
}

function jsonSchemaOf(document: OpenApiDocument, carrier: unknown): unknown {
  const content = isRecord(carrier) ? carrier.content : undefined;
  const json = isRecord(content) ? content['application/json'] : undefined;
  return isRecord(json) ? json.schema : undefined;
}

interface ParameterSchemas {
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly requiredPath: string[];
  readonly requiredQuery: string[];
}

function parametersOf(document: OpenApiDocument, op: Operation): ParameterSchemas {
  const item: unknown = document.paths[op.pathKey];
  const lists = [isRecord(item) ? item.parameters : undefined];
  const operation = isRecord(item) ? item[op.method.toLowerCase()] : undefined;
  if (isRecord(operation)) lists.push(operation.parameters);
  const found: ParameterSchemas = { path: {}, query: {}, requiredPath: [], requiredQuery: [] };
  for (const list of lists) {
    for (const entry of Array.isArray(list) ? list : []) {
      const p = resolved(document, entry);
      if (!isRecord(p) || typeof p.name !== 'string') continue;
      if (p.in === 'path') {
        found.path[p.name] = anchored(p.schema ?? {});
        found.requiredPath.push(p.name);
      } else if (p.in === 'query') {
        found.query[p.name] = anchored(p.schema ?? {});
        if (p.required === true) found.requiredQuery.push(p.name);
      }
    }
  }
  return found;
}

/** Ajv's errors as violations located like `/query/limit`, `/body/name`, `/response/0/id`. */
function violationsOf(errors: readonly ErrorObject[], prefix: string): Violation[] {
  return errors.slice(0, MAX_VIOLATIONS).map((e) => {
    const at = `${prefix}${e.instancePath}`;
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      return { path: `${at}/${e.params.missingProperty}`, message: e.message ?? 'is required' };
    }
    if (
      e.keyword === 'additionalProperties' &&
      typeof e.params.additionalProperty === 'string' &&
      at === '/query'
    ) {
      const name = e.params.additionalProperty;
      return { path: `/query/${name}`, message: `Unknown query parameter '${name}'` };
    }
    return { path: at, message: e.message ?? 'is invalid' };
  });
}

function check(validate: ValidateFunction, value: unknown, prefix: string): Violation[] {
  return validate(value) ? [] : violationsOf(validate.errors ?? [], prefix);
}

function compile(document: OpenApiDocument, op: Operation, ajvs: Ajvs): OperationChecks {
  const parameters = parametersOf(document, op);
  // Parameters come as text: this Ajv coerces them to the schema's types (and writes the result
  // back into the objects it is given), after strict-query has refused what Number() would misread.
  const checkParams = ajvs.coercing.compile({
    type: 'object',
    properties: {
      params: {
        type: 'object',
        properties: parameters.path,
        required: parameters.requiredPath,
      },
      query: {
        type: 'object',
        properties: parameters.query,
        required: parameters.requiredQuery,
        additionalProperties: false,
      },
    },
  });
  const operation: unknown = Reflect.get(document.paths[op.pathKey] ?? {}, op.method.toLowerCase());
  const requestBody = resolved(document, isRecord(operation) ? operation.requestBody : undefined);
  const bodySchema = jsonSchemaOf(document, requestBody);
  const bodyRequired = isRecord(requestBody) && requestBody.required === true;
  const checkBody =
    bodySchema === undefined ? undefined : ajvs.exact.compile(compilable(bodySchema));

  const responses = isRecord(operation) && isRecord(operation.responses) ? operation.responses : {};
  const responseChecks = new Map<string, ValidateFunction | null>();
  const responseCheck = (status: number): ValidateFunction | null | undefined => {
    const key = String(status) in responses ? String(status) : 'default';
    if (!(key in responses)) return undefined;
    let validate = responseChecks.get(key);
    if (validate === undefined) {
      const schema = jsonSchemaOf(document, resolved(document, responses[key]));
      validate = schema === undefined ? null : ajvs.exact.compile(compilable(schema));
      responseChecks.set(key, validate);
    }
    return validate;
  };

  return {
    request: ({ params, query, body }) => {
      const found = check(checkParams, { params, query }, '');
      if (body === undefined) {
        if (bodyRequired)
          found.push({ path: '/body', message: "must have required property 'body'" });
      } else if (checkBody) {
        found.push(...check(checkBody, body, '/body'));
      }
      return found;
    },
    response: (status, body) => {
      const validate = responseCheck(status);
      if (validate === undefined) {
        return [
          {
            path: '/response',
            message: `status ${status} is not documented for ${op.operationId}`,
          },
        ];
      }
      if (validate === null) {
        return [{ path: '/response', message: `status ${status} documents no JSON body` }];
      }
      return check(validate, body, '/response');
    },
  };
}

interface Ajvs {
  readonly coercing: Ajv;
  readonly exact: Ajv;
}

/**
 * Compiles, per operation and on its first request, Ajv checks of its parameters, body and
 * answers from the contract: the only validation on the pet API's path. Nothing is compiled at
 * start, and each check is compiled once.
 */
export function createOperationChecks(
  document: OpenApiDocument,
): (op: Operation) => OperationChecks {
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
