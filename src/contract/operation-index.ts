import { HTTP_METHODS, parametersOf } from './document-parts.js';
import { followRefs } from './json-pointer.js';
import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { sameSecurity, securityOf, securitySchemesOf, type Security } from './security.js';

/** One operation of a contract, as routing and scenarios need to know it. */
export interface Operation {
  /**
   * How the mock names it (journal, coverage, scenarios, the console): its operationId, or
   * `GET /pets/{petId}` (its method and path template) where it has none.
   */
  readonly name: string;
  /** Its operationId, if the contract gives one. */
  readonly operationId: string | undefined;
  readonly method: string;
  /** The full path template, base path included, e.g. `/v1/pets/{petId}`. */
  readonly pathTemplate: string;
  /** The key of its path item in the document, e.g. `/pets/{petId}`. */
  readonly pathKey: string;
  /** The statuses the contract documents for this operation, e.g. `[200, 401]`. */
  readonly statuses: readonly number[];
  /** Its answers documented for a range or for any status: `4XX`, `default`. */
  readonly statusRanges: readonly string[];
  /** Query parameters whose schema is an integer, e.g. `['limit']`. */
  readonly integerQueryParameters: readonly string[];
  /**
   * Path parameters the validator cannot read as written: in `label` (`.a.b`) or `matrix`
   * (`;id=a;id=b`) style, or objects (`role,admin` or `role=admin`) in any style.
   */
  readonly styledPathParameters: readonly StyledParameter[];
  /** Its request body: the media types it accepts, and whether it is required. */
  readonly requestBody:
    { readonly mediaTypes: readonly string[]; readonly required: boolean } | undefined;
  /** Who may call it: its own `security`, else the document's. */
  readonly security: Security;
  readonly deprecated: boolean;
}

/** A path parameter in a style the validator does not read, and what its value is. */
export interface StyledParameter {
  readonly name: string;
  readonly style: 'simple' | 'label' | 'matrix';
  readonly explode: boolean;
  readonly kind: 'array' | 'object' | 'primitive';
  /** Its schema (in the document the index was made from). */
  readonly schema: unknown;
}

/** Whether an operation documents an answer with this status: exactly, by its range, or `default`. */
export function documentsStatus(op: Operation, status: number): boolean {
  return (
    op.statuses.includes(status) ||
    op.statusRanges.includes(`${Math.floor(status / 100)}XX`) ||
    op.statusRanges.includes('default')
  );
}

/** The statuses an operation documents, in words: `200, 404, 4XX, default`. */
export function documentedStatuses(op: Operation): string {
  return [...op.statuses.map(String), ...op.statusRanges].join(', ');
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
   * Who may ask for what the contract does not have (a 404 or 405): the document's `security`,
   * else the one all its operations share, else nobody need be anyone.
   */
  readonly unmatchedSecurity: Security;
  /**
   * The operation and its path parameters, for a path below the base path (`/pets/1` for
   * `/v1/pets/1`); HEAD is answered as GET.
   */
  match(method: string, path: string): Match;
  /** The request headers the contract names: header parameters, and API keys sent in a header. */
  readonly requestHeaders: readonly string[];
  /** An operation by its name (operationId, or `GET /pets/{petId}`). */
  byName(name: string): Operation | undefined;
  /** An operation by its name, or by its method and path template (`get /pets/{petId}`). */
  find(reference: string): Operation | undefined;
}

const RANGE = /^[1-5]XX$/;

/** A path template as a pattern whose groups capture the parameters, in order. */
function templateToRegExp(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * The path a request can ask for: a path key without its `#fragment` (a few contracts tell apart
 * variants of one path so, which no request can carry).
 */
export function routeOf(pathKey: string): string {
  const hash = pathKey.indexOf('#');
  return hash < 0 ? pathKey : pathKey.slice(0, hash);
}

/** A route with its parameters' names left out: `/f/{}` for `/f/{id}` and `/f/{fieldId}`. */
export function shapeOf(pathKey: string): string {
  return routeOf(pathKey).replace(/\{[^}]+\}/g, '{}');
}

/** The parameters of a path template, in order: `/users/{userId}/orders` → `['userId']`. */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
}

/**
 * How specific a template is, segment by segment, lowest first: a segment written out (0), then
 * one with more text around its parameters (`{sha}.{type}` before `{sha}`): OpenAPI matches
 * `/pets/mine` before `/pets/{petId}`.
 */
function specificityOf(template: string): number[] {
  return template.split('/').map((segment) => {
    if (!segment.includes('{')) return 0;
    const written = segment.replace(/\{[^}]*\}/g, '').length;
    return 1000 - Math.min(written, 999);
  });
}

function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** The base path of the document's first server, e.g. `/v1` for `{base_url}` defaulting to `https://petstore.invalid/v1`. */
export function basePathOf(document: OpenApiDocument): string {
  const server = document.servers?.[0];
  const variables = server?.variables ?? {};
  const url = (server?.url ?? '/').replace(
    /\{([^}]+)\}/g,
    (_match, name: string) => variables[name]?.default ?? '',
  );
  let pathname: string;
  try {
    pathname = new URL(url, 'http://base.invalid').pathname;
  } catch {
    pathname = '/';
  }
  return decodeURI(pathname).replace(/\/+$/, '');
}

function requestBodyOf(requestBody: unknown): Operation['requestBody'] {
  if (!isRecord(requestBody)) return undefined;
  const content = isRecord(requestBody.content) ? requestBody.content : {};
  return { mediaTypes: Object.keys(content), required: requestBody.required === true };
}

/** The names of an operation's query parameters whose schema is an integer. */
function integerQueryParametersOf(
  document: OpenApiDocument,
  path: string,
  method: string,
): string[] {
  return parametersOf(document, path, method).flatMap((p) => {
    const schema = p.schema;
    const integer = isRecord(schema) && schema.type === 'integer';
    return p.in === 'query' && integer && typeof p.name === 'string' ? [p.name] : [];
  });
}

/** An operation's path parameters in `label` or `matrix` style, or objects. */
function styledPathParametersOf(
  document: OpenApiDocument,
  path: string,
  method: string,
): StyledParameter[] {
  return parametersOf(document, path, method).flatMap((p): StyledParameter[] => {
    const style = p.style ?? 'simple';
    if (p.in !== 'path' || typeof p.name !== 'string') return [];
    if (style !== 'simple' && style !== 'label' && style !== 'matrix') return [];
    const schema = followRefs(document, p.schema)?.value;
    const type = isRecord(schema) ? schema.type : undefined;
    const kind =
      type === 'array' || (isRecord(schema) && schema.items !== undefined)
        ? 'array'
        : type === 'object' || (isRecord(schema) && schema.properties !== undefined)
          ? 'object'
          : 'primitive';
    if (style === 'simple' && kind !== 'object') return [];
    return [{ name: p.name, style, explode: p.explode === true, kind, schema: p.schema }];
  });
}

/** Indexes the operations of a (normalized) document under its base path. */
export function createOperationIndex(document: OpenApiDocument): OperationIndex {
  const basePath = basePathOf(document);
  const schemes = securitySchemesOf(document.components);
  const documentSecurity = securityOf(document.security, schemes);
  const entries: { operation: Operation; pattern: RegExp; names: string[]; rank: number[] }[] = [];
  const requestHeaders = new Set<string>();
  for (const scheme of schemes.values()) {
    if (scheme.kind === 'apiKey' && scheme.in === 'header') requestHeaders.add(scheme.parameter);
  }
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const responses = isRecord(op.responses) ? Object.keys(op.responses) : [];
      const operationId =
        typeof op.operationId === 'string' && op.operationId !== '' ? op.operationId : undefined;
      for (const parameter of parametersOf(document, path, method)) {
        if (parameter.in === 'header' && typeof parameter.name === 'string') {
          requestHeaders.add(parameter.name);
        }
      }
      entries.push({
        pattern: templateToRegExp(routeOf(path)),
        names: templateParameters(routeOf(path)),
        rank: specificityOf(routeOf(path)),
        operation: {
          name: operationId ?? `${method.toUpperCase()} ${path}`,
          operationId,
          method: method.toUpperCase(),
          pathTemplate: `${basePath}${path}`,
          pathKey: path,
          statuses: responses.map(Number).filter(Number.isInteger),
          statusRanges: responses
            .filter((key) => key === 'default' || RANGE.test(key.toUpperCase()))
            .map((key) => (key === 'default' ? key : key.toUpperCase())),
          requestBody: requestBodyOf(op.requestBody),
          integerQueryParameters: integerQueryParametersOf(document, path, method),
          styledPathParameters: styledPathParametersOf(document, path, method),
          security: securityOf(op.security, schemes) ?? documentSecurity ?? [],
          deprecated: op.deprecated === true,
        },
      });
    }
  }
  const operations = entries.map(({ operation }) => operation);
  // Matched most specific first; listed as the document writes them.
  const ranked = [...entries].sort((a, b) => compareSpecificity(a.rank, b.rank));
  const byName = new Map(operations.map((operation) => [operation.name, operation]));
  const byRoute = new Map(operations.map((op) => [`${op.method} ${op.pathKey}`, op]));
  const [first, ...others] = operations;
  const shared =
    first !== undefined && others.every((op) => sameSecurity(op.security, first.security))
      ? first.security
      : [];
  return {
    basePath,
    operations,
    unmatchedSecurity: documentSecurity ?? shared,
    requestHeaders: [...requestHeaders],
    match: (method, path) => {
      const allowed: string[] = [];
      const candidates: { operation: Operation; params: Record<string, string> }[] = [];
      let shape: string | undefined;
      for (const { operation, pattern, names } of ranked) {
        // The most specific template that matches the path decides; others are other resources.
        // Templates alike but for their parameters' names (`/f/{id}`, `/f/{fieldId}`) are one.
        const own = shapeOf(operation.pathKey);
        if (shape !== undefined && own !== shape) continue;
        const found = pattern.exec(path);
        if (!found) continue;
        shape = own;
        allowed.push(operation.method);
        const params: Record<string, string> = {};
        names.forEach((name, i) => (params[name] = found[i + 1] ?? ''));
        candidates.push({ operation, params });
      }
      // A HEAD is the contract's own HEAD where it documents one, else answered as the GET.
      const found =
        candidates.find((c) => c.operation.method === method) ??
        (method === 'HEAD' ? candidates.find((c) => c.operation.method === 'GET') : undefined);
      if (found) return found;
      if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
      return allowed.length > 0
        ? { operation: undefined, allowed: [...new Set(allowed)] }
        : undefined;
    },
    byName: (name) => byName.get(name),
    find: (reference) => {
      const [method = '', ...path] = reference.trim().split(/\s+/);
      return byName.get(reference) ?? byRoute.get(`${method.toUpperCase()} ${path.join(' ')}`);
    },
  };
}
