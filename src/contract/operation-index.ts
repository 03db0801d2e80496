import { jsonSchemaOf, parametersOf, resolved } from './document-parts.js';
import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';

/** One operation of a contract, as routing and scenarios need to know it. */
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The full path template, base path included, e.g. `/v1/pets/{petId}`. */
  readonly pathTemplate: string;
  /** The key of its path item in the document, e.g. `/pets/{petId}`. */
  readonly pathKey: string;
  /** The statuses the contract documents for this operation, e.g. `[200, 401]`. */
  readonly statuses: readonly number[];
  /** Query parameters whose schema is an integer, e.g. `['limit']`. */
  readonly integerQueryParameters: readonly string[];
  /** Its request body: the component schema named (e.g. `NewPet`; `body` if inline), required or not. */
  readonly requestBody: { readonly schema: string; readonly required: boolean } | undefined;
  readonly deprecated: boolean;
}

/** What a request's method and path name in the contract. */
export type Match =
  /** An operation, with its path parameters as written in the path (not yet decoded). */
  | { readonly operation: Operation; readonly params: Readonly<Record<string, string>> }
  /** A path of the contract, but not with this method: the methods it has. */
  | { readonly operation: undefined; readonly allowed: readonly string[] }
  /** No path of the contract. */
  | undefined;

/** Finds the operation a request is for, by method and path, without running the validator. */
export interface OperationIndex {
  /** The base path of the document's first server, e.g. `/v1`. */
  readonly basePath: string;
  readonly operations: readonly Operation[];
  /**
   * The operation and its path parameters, for a path below the base path (`/pets/1` for
   * `/v1/pets/1`); HEAD is answered as GET.
   */
  match(method: string, path: string): Match;
  byId(operationId: string): Operation | undefined;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A path template as a pattern whose groups capture the parameters, in order. */
function templateToRegExp(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return new RegExp(`^${escaped}/?$`);
}

function parameterNamesOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
}

/** The base path of the document's first server, e.g. `/v1` for `{base_url}` defaulting to `https://petstore.invalid/v1`. */
export function basePathOf(document: OpenApiDocument): string {
  const server = document.servers?.[0];
  const variables = server?.variables ?? {};
  const url = (server?.url ?? '/').replace(
    /\{([^}]+)\}/g,
    (_match, name: string) => variables[name]?.default ?? '',
  );
  return new URL(url, 'http://base.invalid').pathname.replace(/\/$/, '');
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The component schema named by a JSON body, following a `$ref` to the body itself. */
function bodySchemaOf(document: OpenApiDocument, carrier: unknown): string | undefined {
  const schema = jsonSchemaOf(document, carrier);
  const ref = isRecord(schema) && typeof schema.$ref === 'string' ? schema.$ref : '';
  return SCHEMA_REF.exec(ref)?.[1];
}

function requestBodyOf(document: OpenApiDocument, requestBody: unknown): Operation['requestBody'] {
  const body = resolved(document, requestBody);
  if (!isRecord(body)) return undefined;
  return { schema: bodySchemaOf(document, body) ?? 'body', required: body.required === true };
}

/** The names of an operation's query parameters whose schema is an integer. */
function integerQueryParametersOf(
  document: OpenApiDocument,
  path: string,
  method: string,
): string[] {
  return parametersOf(document, path, method).flatMap((p) => {
    const schema = resolved(document, p.schema);
    const integer = isRecord(schema) && schema.type === 'integer';
    return p.in === 'query' && integer && typeof p.name === 'string' ? [p.name] : [];
  });
}

/** Indexes the operations of a document under its base path. */
export function createOperationIndex(document: OpenApiDocument): OperationIndex {
  const basePath = basePathOf(document);
  const entries: { operation: Operation; pattern: RegExp; names: string[] }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op) || typeof op.operationId !== 'string') continue;
      const responses = isRecord(op.responses) ? Object.keys(op.responses) : [];
      const pathTemplate = `${basePath}${path}`;
      entries.push({
        pattern: templateToRegExp(path),
        names: parameterNamesOf(path),
        operation: {
          operationId: op.operationId,
          method: method.toUpperCase(),
          pathTemplate,
          pathKey: path,
          statuses: responses.map(Number).filter(Number.isInteger),
          requestBody: requestBodyOf(document, op.requestBody),
          integerQueryParameters: integerQueryParametersOf(document, path, method),
          deprecated: op.deprecated === true,
        },
      });
    }
  }
  const byId = new Map(entries.map(({ operation }) => [operation.operationId, operation]));
  return {
    basePath,
    operations: entries.map(({ operation }) => operation),
    match: (method, path) => {
      const wanted = method === 'HEAD' ? 'GET' : method;
      const allowed: string[] = [];
      for (const { operation, pattern, names } of entries) {
        const found = pattern.exec(path);
        if (!found) continue;
        if (operation.method !== wanted) {
          allowed.push(operation.method);
          continue;
        }
        const params: Record<string, string> = {};
        names.forEach((name, i) => (params[name] = found[i + 1] ?? ''));
        return { operation, params };
      }
      // HEAD is answered wherever GET is.
      if (allowed.includes('GET')) allowed.push('HEAD');
      return allowed.length > 0 ? { operation: undefined, allowed } : undefined;
    },
    byId: (operationId) => byId.get(operationId),
  };
}
