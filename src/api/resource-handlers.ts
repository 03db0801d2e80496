import type { GenerateValue } from '../contract/answer-generator.js';
import type { AnswerCheck } from '../contract/answer-check.js';
import { itemShapeOf, type ItemShape } from '../contract/item-shape.js';
import { KEY_TRIES, newStringKey } from '../state/item-seeds.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import { templateParameters } from '../contract/operation-index.js';
import type { Resource, ResourceModel, ResourceOperation } from '../contract/resource-model.js';
import { HttpError } from '../http/http-error.js';
import type { Reply } from '../http/pet-call.js';
import { parseInt64 } from '../util/int64.js';
import { stringifyJson } from '../util/json-codec.js';
import { isRecord } from '../util/is-record.js';
import { quoteText } from '../util/quote-text.js';
import { keyText, type Created, type Item, type ItemPlace, type NewKey } from '../state/item.js';
import { listAnswer, pageOf } from './resource-list.js';

/** A session's items, as the resource handlers reach them through the state. */
export interface SessionItems {
  list(place: ItemPlace): Promise<readonly Item[]>;
  get(place: ItemPlace, key: string): Promise<Item | undefined>;
  create(place: ItemPlace, item: Item, key: NewKey): Promise<Created>;
  replace(place: ItemPlace, key: string, item: Item): Promise<boolean>;
  remove(place: ItemPlace, key: string): Promise<boolean>;
}

/** A request to a resource's operation that passed every check of the contract. */
export interface ResourceRequest {
  /** Path parameters, decoded, as sent. */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, the contract's integers as numbers (coerced by the validator). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The exact JSON body (int64 digits kept); undefined for none. */
  readonly body: unknown;
  /** The request's body media type (`application/merge-patch+json`), if it has one. */
  readonly mediaType: string | undefined;
  /** Where it was sent: for a create's Location and a list's next link. */
  readonly url: { readonly origin: string; readonly path: string; readonly query: string };
  readonly items: SessionItems;
}

export type ResourceHandler = (request: ResourceRequest) => Promise<Reply>;

/** What the handlers read of the contract besides the model. */
export interface ResourceContract {
  readonly document: OpenApiDocument;
  /** The base path of the pet API (`/v1`): a Location is a path under it. */
  readonly basePath: string;
  /** A value for a schema of the contract, seeded (ContractAnswers.generate). */
  readonly generate: GenerateValue;
  /** Checks a value against a schema of the contract, as answers are checked. */
  readonly check: AnswerCheck;
  /** The body of an operation's natural answer from the contract: a list's envelope. */
  readonly contractBody: (operation: string) => Promise<unknown>;
}

/** A resource with what the handlers need of it at hand. */
interface Served {
  readonly resource: Resource;
  readonly shape: ItemShape;
  /**
   * Its ancestors the model holds, outermost first: each must have the item the request's path
   * names (else a 404).
   */
  readonly ancestors: readonly Resource[];
  /**
   * Every path parameter of its collection path, in order: the place of its items. A parent the
   * model does not hold (`/repos/{owner}/{repo}/issues`) still keeps its items apart.
   */
  readonly placeParameters: readonly string[];
}

/** The key a path names, as the store writes keys; undefined where no item could have it. */
function keyFromPath(resource: Resource, text: string): string | undefined {
  if (resource.key.kind !== 'integer') return text;
  return parseInt64(text)?.toString();
}

function notFound(op: ResourceOperation, what: Resource, key: string): HttpError {
  return new HttpError(
    op.notFound ?? 404,
    'not_found',
    `No item of '${what.name}' has the ${what.key.property} ${quoteText(key)}.`,
  );
}

/** The body's item: unwrapped from its one property where the contract wraps it. */
function bodyItem(op: ResourceOperation, body: unknown): Record<string, unknown> {
  const inner = op.bodyWrapper === undefined || !isRecord(body) ? body : body[op.bodyWrapper];
  if (!isRecord(inner)) {
    throw new HttpError(400, 'bad_request', 'The body must be an object: the item to store.');
  }
  return inner;
}

/** What a client may set: declared properties (all of a free-form item), the server's left out. */
function clientPart(
  shape: ItemShape,
  body: Record<string, unknown>,
  keep: string | undefined,
): Item {
  const part: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (shape.declared && !shape.declared.has(name)) continue;
    if (shape.readOnly.has(name) && name !== keep) continue;
    part[name] = value;
  }
  return part;
}

/** JSON Merge Patch (RFC 7396): objects merge, `null` removes, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const base = isRecord(target) ? target : {};
  const result: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(base), ...Object.keys(patch)])) {
    if (!(name in patch)) result[name] = base[name];
    else if (patch[name] !== null) result[name] = mergePatch(base[name], patch[name]);
  }
  return result;
}

/**
 * The stateful operations of a contract's resources (resource-model.ts), by operation name:
 * create stores the validated body with the server's part filled (key, readOnly properties,
 * defaults) and answers it; read answers it or a 404; list answers the session's items in key
 * order, filtered and paged as the query asks; PUT replaces, PATCH merges, DELETE removes. Every
 * answer still goes through the contract's validator.
 */
export function createResourceHandlers(
  model: ResourceModel,
  contract: ResourceContract,
): ReadonlyMap<string, ResourceHandler> {
  const byName = new Map(model.resources.map((resource) => [resource.name, resource]));
  const handlers = new Map<string, ResourceHandler>();
  for (const resource of model.resources) {
    const ancestors: Resource[] = [];
    for (let link = resource.parent; link;) {
      const parent = byName.get(link.resource);
      if (!parent) break;
      ancestors.unshift(parent);
      link = parent.parent;
    }
    const served: Served = {
      resource,
      shape: itemShapeOf(contract.document, resource.itemSchema),
      ancestors,
      placeParameters: templateParameters(resource.collectionPath),
    };
    for (const op of resource.operations) {
      handlers.set(op.operation, handlerOf(served, op, contract));
    }
  }
  return handlers;
}

/**
 * The place a request's path names: its collection path's parameters, each ancestor's key as
 * that ancestor writes keys; every ancestor the model holds checked to exist (else a 404).
 */
async function placeOf(
  served: Served,
  op: ResourceOperation,
  request: ResourceRequest,
): Promise<ItemPlace> {
  const texts = new Map<string, string>();
  for (const ancestor of served.ancestors) {
    const parameter = ancestor.key.parameter;
    if (parameter === undefined) continue;
    const text = request.params[parameter] ?? '';
    const key = keyFromPath(ancestor, text);
    const parents = templateParameters(ancestor.collectionPath).map(
      (name) => texts.get(name) ?? request.params[name] ?? '',
    );
    if (
      key === undefined ||
      !(await request.items.get({ resource: ancestor.name, parents }, key))
    ) {
      throw notFound(op, ancestor, text);
    }
    texts.set(parameter, key);
  }
  const parents = served.placeParameters.map(
    (name) => texts.get(name) ?? request.params[name] ?? '',
  );
  return { resource: served.resource.name, parents };
}

/** The answer's body: the item (or the part the contract answers), wrapped where it is. */
function itemAnswer(op: ResourceOperation, item: Item): unknown {
  let body: Item = item;
  if (op.answerProperties) {
    body = Object.fromEntries(
      op.answerProperties.filter((p) => p in item).map((p) => [p, item[p]]),
    );
  }
  return op.answerWrapper === undefined ? body : { [op.answerWrapper]: body };
}

function reply(op: ResourceOperation, body: unknown, headers?: Record<string, string>): Reply {
  return op.answersBody
    ? { status: op.status, body, headers }
    : { status: op.status, body: undefined, headers };
}

function handlerOf(
  served: Served,
  op: ResourceOperation,
  contract: ResourceContract,
): ResourceHandler {
  const { resource, shape } = served;
  const keyProperty = resource.key.property;

  /** The key of the item a request is about: from its path, or (a PUT on the collection) its body. */
  const keyOfRequest = (request: ResourceRequest): string => {
    if (
      resource.key.parameter !== undefined &&
      request.params[resource.key.parameter] !== undefined
    ) {
      const text = request.params[resource.key.parameter] ?? '';
      const key = keyFromPath(resource, text);
      if (key === undefined) throw notFound(op, resource, text);
      return key;
    }
    const fromBody = keyText(bodyItem(op, request.body)[keyProperty]);
    if (fromBody === undefined) {
      throw new HttpError(400, 'bad_request', `The body must carry the item's '${keyProperty}'.`);
    }
    return fromBody;
  };

  /** The item as stored after a write: the client's part over what the server keeps. */
  const withServerPart = (kept: Item, client: Item): Item => {
    const server = Object.fromEntries(
      Object.entries(kept).filter(([name]) => shape.readOnly.has(name) || name === keyProperty),
    );
    return { ...client, ...server };
  };

  switch (op.role) {
    case 'list':
      return async (request) => {
        const place = await placeOf(served, op, request);
        const shapeOfList = op.list ?? {
          itemsProperty: undefined,
          totalProperty: undefined,
          next: undefined,
          filters: [],
          paging: undefined,
        };
        const page = pageOf(
          await request.items.list(place),
          shapeOfList,
          keyProperty,
          request.query,
        );
        const envelope =
          shapeOfList.itemsProperty === undefined
            ? undefined
            : await contract.contractBody(op.operation);
        const body = listAnswer(page, shapeOfList, envelope, (start) => {
          const parameter = shapeOfList.paging?.start?.parameter ?? 'page';
          const query = new URLSearchParams(request.url.query);
          query.set(parameter, start);
          return `${request.url.origin}${request.url.path}?${query.toString()}`;
        });
        return reply(op, body);
      };
    case 'read':
      return async (request) => {
        const place = await placeOf(served, op, request);
        const key = keyOfRequest(request);
        const item = await request.items.get(place, key);
        if (!item) throw notFound(op, resource, key);
        return reply(op, itemAnswer(op, item));
      };
    case 'create':
      return async (request) => {
        const place = await placeOf(served, op, request);
        const body = bodyItem(op, request.body);
        const chosen = resource.key.fromClient === 'never' ? undefined : body[keyProperty];
        const client = clientPart(shape, body, chosen === undefined ? undefined : keyProperty);
        const filled = await serverFilled(served, contract, client, [
          ...place.parents,
          stringifyJson(client),
        ]);
        const created = await createWithKey(served, contract, request, place, filled, chosen);
        if ('taken' in created) {
          throw new HttpError(
            op.conflict ?? 409,
            'conflict',
            `An item of '${resource.name}' with the ${keyProperty} ${quoteText(created.taken)} exists already.`,
          );
        }
        const headers =
          op.location && resource.itemPath !== undefined
            ? {
                Location: locationOf(
                  contract.basePath,
                  resource.itemPath,
                  request.params,
                  resource,
                  created.item,
                ),
              }
            : undefined;
        return reply(op, itemAnswer(op, created.item), headers);
      };
    case 'replace':
    case 'update':
      return async (request) => {
        const place = await placeOf(served, op, request);
        const key = keyOfRequest(request);
        const kept = await request.items.get(place, key);
        if (!kept) throw notFound(op, resource, key);
        const body = bodyItem(op, request.body);
        const client = clientPart(shape, body, undefined);
        let next: Item;
        if (op.role === 'replace') next = withServerPart(kept, client);
        else if (
          op.merge === 'merge-patch' &&
          request.mediaType === 'application/merge-patch+json'
        ) {
          const merged = mergePatch(kept, client);
          next = withServerPart(kept, isRecord(merged) ? merged : {});
        } else next = withServerPart(kept, { ...kept, ...client });
        // A valid body may still make an item its schema refuses (a merge that drops a required
        // property, a null where the item has none): refused, nothing stored.
        const problems = contract.check(resource.itemSchema, next);
        if (problems.length > 0) {
          throw new HttpError(
            400,
            'bad_request',
            `The item would no longer keep to its schema: ${problems.slice(0, 3).join('; ')}.`,
          );
        }
        if (!(await request.items.replace(place, key, next))) throw notFound(op, resource, key);
        return reply(op, itemAnswer(op, next));
      };
    case 'delete':
      return async (request) => {
        const place = await placeOf(served, op, request);
        const key = keyOfRequest(request);
        const kept = await request.items.get(place, key);
        if (!kept || !(await request.items.remove(place, key))) throw notFound(op, resource, key);
        return reply(op, op.answersBody ? await contract.contractBody(op.operation) : undefined);
      };
  }
}

/**
 * The item of a create with the server's part filled: properties the client may not set
 * (readOnly) and those the item requires that the client left out, from an item generated from
 * the schema (seeded by the place and body: the same create, the same item); defaults where the
 * client sent nothing.
 */
async function serverFilled(
  served: Served,
  contract: ResourceContract,
  client: Item,
  mix: readonly string[],
): Promise<Item> {
  const { resource, shape } = served;
  const generated = await contract.generate(resource.itemSchema, [resource.name, 'create', ...mix]);
  const server: Record<string, unknown> = {};
  if (isRecord(generated)) {
    for (const [name, value] of Object.entries(generated)) {
      if (name === resource.key.property) continue;
      if (shape.readOnly.has(name) || (shape.required.has(name) && !(name in client)))
        server[name] = value;
    }
  }
  for (const [name, value] of shape.defaults) {
    if (!(name in client) && !(name in server)) server[name] = structuredClone(value);
  }
  return { ...server, ...client };
}

/** A created item's path: the item path with its parents' and its own key filled in. */
function locationOf(
  basePath: string,
  itemPath: string,
  params: Readonly<Record<string, string>>,
  resource: Resource,
  item: Item,
): string {
  const key = String(item[resource.key.property]);
  const path = itemPath.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    encodeURIComponent(name === resource.key.parameter ? key : (params[name] ?? '')),
  );
  return `${basePath}${path}`;
}

/**
 * The model less the resources any of whose operations other handlers answer (the Pet Store's
 * pets, kept by their own store until they are one case of the engine): a resource's items are
 * kept in one place or not at all. Their other operations are answered from the contract.
 */
export function withoutResourcesOf(
  model: ResourceModel,
  handledElsewhere: ReadonlySet<string>,
  why: string,
): ResourceModel {
  const kept = model.resources.filter(
    (resource) => !resource.operations.some((op) => handledElsewhere.has(op.operation)),
  );
  if (kept.length === model.resources.length) return model;
  const dropped = model.resources
    .filter((resource) => !kept.includes(resource))
    .flatMap((resource) => resource.operations.map((op) => op.operation))
    .filter((operation) => !handledElsewhere.has(operation))
    .map((operation) => ({ operation, reason: why }));
  return { resources: kept, stateless: [...model.stateless, ...dropped] };
}

/**
 * Stores a created item under the client's key, or a new one: integer and uuid keys are the
 * store's (counted per session); a string key is generated from its own schema, so it keeps to
 * the schema's pattern or format (`^urn:doc:\d+$`), tried again where taken.
 */
async function createWithKey(
  served: Served,
  contract: ResourceContract,
  request: ResourceRequest,
  place: ItemPlace,
  item: Item,
  chosen: unknown,
): Promise<Created> {
  const { key } = served.resource;
  if (typeof chosen === 'string' || typeof chosen === 'number' || typeof chosen === 'bigint') {
    return request.items.create(place, item, { property: key.property, chosen });
  }
  if (key.kind === 'string') {
    for (let attempt = 0; attempt < KEY_TRIES; attempt += 1) {
      const made = await newStringKey(contract.generate, contract.document, served.resource, [
        ...place.parents,
        attempt,
        stringifyJson(item),
      ]);
      if (made === undefined) break;
      const created = await request.items.create(place, item, {
        property: key.property,
        chosen: made,
      });
      if (!('taken' in created)) return created;
    }
  }
  return request.items.create(place, item, {
    property: key.property,
    chosen: undefined,
    kind: key.kind,
  });
}
