import { parametersOf } from './document-parts.js';
import {
  filtersOf,
  listAnswerOf,
  listShapeOf,
  pagingOf,
  type QueryParameter,
} from './list-shape.js';
import { essenceOf } from './media-types.js';
import { requestBodyOf, successOf } from './operation-bodies.js';
import type { OpenApiDocument } from './openapi-document.js';
import { documentsStatus, type Operation } from './operation-index.js';
import type { ResourceHints } from './resource-hints.js';
import type { ResourceKey, ResourceOperation, ResourceRole } from './resource-model.js';
import type { SchemaViews } from './schema-view.js';

// The role an operation takes in a resource (list, create, read, replace, update, delete), read
// from its body, its success answer and its query, or why it takes none, in words.

/** What the inference of one resource reads and records. */
export interface InferenceContext {
  readonly document: OpenApiDocument;
  readonly views: SchemaViews;
  readonly hints: ResourceHints;
  readonly reasons: Map<string, string>;
  readonly claimed: Set<string>;
}

/** How the item sits in a body or an answer: whole or in part, bare or in one property. */
interface Carrier {
  readonly wrapper: string | undefined;
  /** The item's properties it carries; undefined: the whole item. */
  readonly properties: readonly string[] | undefined;
}

/**
 * How a body or answer carries the item: the item itself, or in one property; or part of it
 * (its every property one of the item's), bare or in one property.
 */
function carrierOf(views: SchemaViews, schema: unknown, item: unknown): Carrier | undefined {
  if (views.same(schema, item)) return { wrapper: undefined, properties: undefined };
  const own = [...views.view(schema).properties];
  const [only] = own;
  const single = own.length === 1 && only !== undefined ? only : undefined;
  const inside = single?.[1][0];
  if (single && views.isObject(schema) && views.same(inside, item)) {
    return { wrapper: single[0], properties: undefined };
  }
  const part = views.partOf(schema, item);
  if (part) return { wrapper: undefined, properties: part };
  const innerPart = single && views.isObject(inside) ? views.partOf(inside, item) : undefined;
  return single && innerPart ? { wrapper: single[0], properties: innerPart } : undefined;
}

/** The item a read's answer holds: bare, or in the answer's one property that is an object. */
export function readItemOf(
  views: SchemaViews,
  answer: unknown,
  listAnswer: unknown,
): { readonly item: unknown; readonly wrapper: string | undefined } {
  const own = [...views.view(answer).properties];
  const [only] = own;
  const inside = only?.[1][0];
  // A list of the answer itself says it is the item, though it has one object property.
  const listed = listAnswer !== undefined && listAnswerOf(views, listAnswer, answer) !== undefined;
  if (own.length === 1 && only && views.isObject(inside) && !listed) {
    return { item: inside, wrapper: only[0] };
  }
  return { item: answer, wrapper: undefined };
}

/** The query parameters of an operation. */
function queryOf(document: OpenApiDocument, op: Operation): QueryParameter[] {
  return parametersOf(document, op.pathKey, op.method).flatMap((p) =>
    p.in === 'query' && typeof p.name === 'string'
      ? [{ name: p.name, required: p.required === true, schema: p.schema }]
      : [],
  );
}

/** The path parameter's schema, for the key match. */
export function pathParameterOf(
  document: OpenApiDocument,
  op: Operation | undefined,
  name: string,
): { readonly name: string; readonly schema: unknown } {
  if (!op) return { name, schema: undefined };
  const found = parametersOf(document, op.pathKey, op.method).find(
    (p) => p.in === 'path' && p.name === name,
  );
  return { name, schema: found?.schema };
}

/** A resource operation with what most roles leave unset. */
export function roleOf(
  role: ResourceRole,
  op: Operation,
  status: number,
  fields: Partial<ResourceOperation>,
): ResourceOperation {
  return {
    role,
    operation: op.name,
    status,
    answersBody: true,
    answerWrapper: undefined,
    bodyWrapper: undefined,
    answerProperties: undefined,
    location: false,
    notFound: documentsStatus(op, 404) ? 404 : undefined,
    conflict: undefined,
    list: undefined,
    merge: undefined,
    ...fields,
  };
}

/**
 * The list role of a GET (on a collection or a search path), or why it is none: its answer must
 * carry the items of `target`, and each of its required query parameters must be a filter or
 * paging (else the list would answer what its client did not ask for). What a hint decided of
 * its filters is added to `notes`.
 */
export function listRole(
  ctx: InferenceContext,
  op: Operation,
  item: unknown,
  target: string,
  notes: string[],
): ResourceOperation | string {
  const { views } = ctx;
  const success = successOf(ctx.document, op, () => 200);
  if (!success.json) return 'its answer is not JSON';
  const list = listAnswerOf(views, success.schema, item);
  if (!list) return `its answer is not a list of the item of ${target}`;
  const query = queryOf(ctx.document, op);
  const paging = pagingOf(views, query);
  const mapped = new Map<string, string | false>();
  for (const [parameter, hint] of ctx.hints.filters.get(op.name) ?? []) {
    const known = hint.value === false || views.view(item).properties.has(hint.value);
    if (known) mapped.set(parameter, hint.value);
    notes.push(
      hint.value === false
        ? `${op.name}: ${parameter} is no filter (${hint.source})`
        : known
          ? `${op.name}: ${parameter} filters ${hint.value} (${hint.source})`
          : `${op.name}: ${hint.source} names ${hint.value}, which the item has not`,
    );
  }
  const filters = filtersOf(views, item, query, paging, mapped);
  const honoured = new Set([
    ...filters.map((f) => f.parameter),
    paging?.size?.parameter,
    paging?.start?.parameter,
  ]);
  const ignored = query.find((p) => p.required && !honoured.has(p.name));
  if (ignored) return `its required query parameter ${ignored.name} is neither a filter nor paging`;
  return roleOf('list', op, success.status, {
    answersBody: true,
    list: listShapeOf(views, success.schema, list, filters, paging),
  });
}

/**
 * The role of a create, replace, update or delete, from its body and success answer, or why it
 * has none. An answer must be the item (or part of it), or none. An operation that documents no
 * success at all (the Swagger Petstore's `POST /pet` documents only a 405) has none: it could
 * answer nothing its contract allows.
 */
export function writeRole(
  ctx: InferenceContext,
  role: 'create' | 'replace' | 'update' | 'delete',
  op: Operation,
  item: unknown,
  target: string,
): ResourceOperation | string {
  const { views } = ctx;
  const body = requestBodyOf(ctx.document, op);
  const bodyCarrier = body?.json ? carrierOf(views, body.schema, item) : undefined;
  if (role !== 'delete' && role !== 'create' && !bodyCarrier) {
    return `its body is not the item of ${target}`;
  }
  const fallback =
    role === 'create'
      ? () => 201
      : role === 'delete'
        ? (content: boolean) => (content ? 200 : 204)
        : () => 200;
  const success = successOf(ctx.document, op, fallback);
  const fields: Partial<ResourceOperation> = {
    bodyWrapper: bodyCarrier?.wrapper,
    merge:
      role !== 'update'
        ? undefined
        : body?.mediaTypes.some((type) => essenceOf(type) === 'application/merge-patch+json')
          ? 'merge-patch'
          : 'shallow',
  };
  // An answer the contract does not document could not pass its validator.
  if (!success.documented) return 'it documents no success answer (2XX or default)';
  if (success.status === 204 || success.mediaTypes.length === 0) {
    if (role === 'create' && !bodyCarrier) {
      return `its answer is empty, and its body is not the item of ${target}`;
    }
    return roleOf(role, op, success.status, {
      ...fields,
      answersBody: false,
      location: role === 'create' && success.headers.some((h) => h.toLowerCase() === 'location'),
    });
  }
  const answer = success.json ? carrierOf(views, success.schema, item) : undefined;
  if (!answer) {
    return role === 'delete'
      ? `its answer is neither empty nor the item of ${target}`
      : `its answer is not the item of ${target}`;
  }
  return roleOf(role, op, success.status, {
    ...fields,
    location: role === 'create' && success.headers.some((h) => h.toLowerCase() === 'location'),
    answerWrapper: answer.wrapper,
    answerProperties: answer.properties,
  });
}

/**
 * A PUT on the collection path replaces the item its body names by its key (the Swagger
 * Petstore's `PUT /pet`), unless the item path has its own replace.
 */
export function collectionReplace(
  ctx: InferenceContext,
  op: Operation,
  item: unknown,
  key: string,
  target: string,
  beside: Operation | undefined,
): ResourceOperation | string {
  const shape = `${op.method} ${op.pathKey} is not a REST shape`;
  if (beside) return `${shape}: a PUT on a collection path beside ${beside.name}`;
  const body = requestBodyOf(ctx.document, op);
  const carrier = body?.json ? carrierOf(ctx.views, body.schema, item) : undefined;
  if (!carrier || !(carrier.properties?.includes(key) ?? true)) {
    return `${shape}: a PUT on a collection path without the item's key ${key} in its body`;
  }
  return writeRole(ctx, 'replace', op, item, target);
}

/**
 * Whether a create's body may carry the key: `required` where its schema requires it,
 * `optional` where it has it, `never` where it has it not or the item's property is readOnly.
 */
export function fromClientOf(
  ctx: InferenceContext,
  create: Operation,
  role: ResourceOperation,
  item: unknown,
  key: string,
): ResourceKey['fromClient'] {
  const { views } = ctx;
  const body = requestBodyOf(ctx.document, create);
  if (!body?.json) return 'never';
  const wrapped =
    role.bodyWrapper === undefined
      ? undefined
      : views.view(body.schema).properties.get(role.bodyWrapper);
  const schema = wrapped === undefined ? body.schema : wrapped[0];
  const own = views.view(schema);
  const declared = own.properties.get(key);
  const readOnly = [...(views.view(item).properties.get(key) ?? []), ...(declared ?? [])].some(
    (s) => views.view(s).readOnly,
  );
  if (declared === undefined || readOnly) return 'never';
  return own.required.has(key) ? 'required' : 'optional';
}
