import { listAnswerOf } from './list-shape.js';
import { successOf } from './operation-bodies.js';
import type { OpenApiDocument } from './openapi-document.js';
import { documentsStatus, type Operation, type OperationIndex } from './operation-index.js';
import type { ResourceHints } from './resource-hints.js';
import { keyKindOf, matchKey } from './resource-key.js';
import type {
  Resource,
  ResourceKey,
  ResourceModel,
  ResourceOperation,
  ResourceRole,
} from './resource-model.js';
import {
  candidatesOf,
  isLiteral,
  itemParameterOf,
  lastLiteral,
  parentOf,
  uniqueNames,
} from './resource-paths.js';
import {
  collectionReplace,
  fromClientOf,
  listRole,
  pathParameterOf,
  readItemOf,
  roleOf,
  writeRole,
  type InferenceContext,
} from './resource-roles.js';
import { createSchemaViews } from './schema-view.js';

// Resources found by the REST shape of a contract's paths: a collection path (`/orders`,
// `/users/{userId}/orders`) lists and creates, its item path (`/orders/{orderId}`) reads,
// replaces, updates and deletes. Every rule here is a general one, read from the document alone
// (and the hints); each operation either takes a role in one resource or is left stateless with
// the reason, in words.

/** Roles in the order a resource lists its operations. */
const ROLE_ORDER: readonly ResourceRole[] = [
  'list',
  'create',
  'read',
  'replace',
  'update',
  'delete',
];

/** A resource before its name and parent are known (both depend on the other resources). */
interface Draft {
  readonly collectionPath: string;
  readonly itemPath: string | undefined;
  readonly key: ResourceKey;
  readonly itemSchema: unknown;
  readonly writeOnly: readonly string[];
  readonly operations: ResourceOperation[];
  readonly hints: string[];
}

/** Infers the resources of a contract and why each other operation stays stateless. */
export function inferResources(
  document: OpenApiDocument,
  operations: OperationIndex,
  hints: ResourceHints,
): ResourceModel {
  const views = createSchemaViews(document);
  const reasons = new Map<string, string>();
  const claimed = new Set<string>();
  const byPath = new Map<string, Operation[]>();
  for (const op of operations.operations) {
    const atPath = byPath.get(op.pathKey);
    if (atPath) atPath.push(op);
    else byPath.set(op.pathKey, [op]);
    const hint = hints.stateless.get(op.name);
    if (hint?.value === true) {
      const why = hint.source === 'x-mock-stateless' ? hint.source : `stateless in ${hint.source}`;
      reasons.set(op.name, why);
    }
  }
  const opsAt = (path: string | undefined): readonly Operation[] =>
    path === undefined ? [] : (byPath.get(path) ?? []);
  const kept = (op: Operation): boolean => hints.stateless.get(op.name)?.value === true;

  const drafts: Draft[] = [];
  for (const [collection, itemPaths] of candidatesOf([...byPath.keys()], reasons, opsAt)) {
    const itemPath =
      itemPaths.find((path) => opsAt(path).some((op) => op.method === 'GET' && !kept(op))) ??
      itemPaths[0];
    for (const other of itemPaths.filter((path) => path !== itemPath)) {
      const why = `${itemPath ?? ''} is the item path of ${collection}, not ${other}`;
      for (const op of opsAt(other)) if (!kept(op)) reasons.set(op.name, why);
    }
    const own = [...opsAt(collection), ...opsAt(itemPath)].filter((op) => !kept(op));
    const draft = inferOne(
      { document, views, hints, reasons, claimed },
      collection,
      itemPath,
      own.filter((op) => op.pathKey === collection),
      own.filter((op) => op.pathKey === itemPath),
    );
    if (typeof draft === 'string') {
      for (const op of own) if (!reasons.has(op.name)) reasons.set(op.name, draft);
    } else {
      for (const op of [...opsAt(collection), ...opsAt(itemPath)].filter(kept)) {
        draft.hints.push(
          `${op.name} kept stateless (${hints.stateless.get(op.name)?.source ?? ''})`,
        );
      }
      drafts.push(draft);
    }
  }
  addSearchLists({ document, views, hints, reasons, claimed }, drafts, operations.operations);
  return {
    resources: finish(drafts.filter((draft) => reachable(draft, claimed, reasons))),
    stateless: operations.operations
      .filter((op) => !claimed.has(op.name))
      .map((op) => ({
        operation: op.name,
        reason: reasons.get(op.name) ?? `${op.method} ${op.pathKey} is not a REST shape`,
      })),
  };
}

/**
 * Whether a resource's items can be reached: it has a list or a create. A read alone (a lookup,
 * `GET /accounts/{id}`) would find only the seeded keys, which no client could learn: its
 * operations are then answered from the contract (any key found), and say why.
 */
function reachable(draft: Draft, claimed: Set<string>, reasons: Map<string, string>): boolean {
  if (draft.operations.some((op) => op.role === 'list' || op.role === 'create')) return true;
  const target = draft.itemPath ?? draft.collectionPath;
  for (const op of draft.operations) {
    claimed.delete(op.operation);
    reasons.set(
      op.operation,
      `${target} has no list nor create: its items would be found only by keys no client can learn`,
    );
  }
  return false;
}

/** Why a collection and its item path are no resource: no read, nor a list and a create. */
function noResource(collection: string, itemPath: string | undefined, listed: boolean): string {
  if (itemPath !== undefined) {
    return `no read of ${itemPath}, nor a list and a create on ${collection}`;
  }
  return listed
    ? `${collection} has no item path, and no create beside its list`
    : `no item path nor list for ${collection}`;
}

/**
 * The resource of a collection path and its item path, or why there is none (the reason of
 * each of their operations that has none of its own). It needs a read (a GET on the item path
 * answering an object), or a list and a create; the item is the read's answer (unwrapped), else
 * the list's element.
 */
function inferOne(
  ctx: InferenceContext,
  collection: string,
  itemPath: string | undefined,
  collectionOps: readonly Operation[],
  itemOps: readonly Operation[],
): Draft | string {
  const { document, views, reasons } = ctx;
  const target = itemPath ?? collection;
  const byMethod = (ops: readonly Operation[], method: string) =>
    ops.find((op) => op.method === method);
  for (const op of collectionOps) {
    if (!['GET', 'POST', 'PUT'].includes(op.method)) {
      reasons.set(
        op.name,
        `${op.method} ${op.pathKey} is not a REST shape: a ${op.method} on a collection path`,
      );
    }
  }
  for (const op of itemOps) {
    if (!['GET', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) {
      reasons.set(
        op.name,
        `${op.method} ${op.pathKey} is not a REST shape: a ${op.method} on an item path`,
      );
    }
  }
  const list = byMethod(collectionOps, 'GET');
  const create = byMethod(collectionOps, 'POST');
  const collectionPut = byMethod(collectionOps, 'PUT');
  const read = byMethod(itemOps, 'GET');

  const listSuccess = list ? successOf(document, list, () => 200) : undefined;
  const listAnswer = listSuccess?.json ? listSuccess.schema : undefined;
  const listed = listAnswer === undefined ? undefined : listAnswerOf(views, listAnswer, undefined);
  // Without a read, a list and a create are needed: said before anything else is looked for.
  if (!read && !(listed && create)) return noResource(collection, itemPath, listed !== undefined);
  let item: unknown;
  let readRole: ResourceOperation | undefined;
  if (read) {
    const success = successOf(document, read, () => 200);
    const found = success.json ? readItemOf(views, success.schema, listAnswer) : undefined;
    if (!success.documented) reasons.set(read.name, 'it documents no success answer');
    else if (!found) reasons.set(read.name, 'its answer is not JSON');
    else if (!views.isObject(found.item)) reasons.set(read.name, 'its answer is not an object');
    else {
      item = found.item;
      readRole = roleOf('read', read, success.status, { answerWrapper: found.wrapper });
    }
  }
  if (readRole === undefined && !(listed && create)) {
    return noResource(collection, itemPath, listed !== undefined);
  }
  item ??= listed?.element;
  if (item === undefined) return noResource(collection, itemPath, false);

  const notes: string[] = [];
  const parameter = itemParameterOf(itemPath);
  const hint = ctx.hints.keys.get(collection) ?? (itemPath && ctx.hints.keys.get(itemPath));
  let property: string | undefined;
  if (hint) {
    if (!views.view(item).properties.has(hint.value)) {
      return `${hint.source} names ${hint.value}, which the item of ${target} has not`;
    }
    property = hint.value;
    notes.push(`key ${hint.value} (${hint.source})`);
  } else {
    const addressed = itemOps.find((op) => ['GET', 'PUT', 'PATCH', 'DELETE'].includes(op.method));
    property = matchKey(
      views,
      item,
      lastLiteral(collection),
      parameter === undefined ? undefined : pathParameterOf(document, addressed, parameter),
    );
  }
  if (property === undefined) {
    return parameter === undefined
      ? `the item of ${collection} has no id (x-mock-key can name its key)`
      : `no property of the item of ${target} matches its parameter ${parameter} (x-mock-key can name it)`;
  }
  const [keySchema] = views.view(item).properties.get(property) ?? [];
  const kind = keyKindOf(views, keySchema);
  if (kind === undefined) return `its key ${property} is neither a string nor a number`;

  const roles: ResourceOperation[] = [];
  const claim = (op: Operation | undefined, result: ResourceOperation | string | undefined) => {
    if (op === undefined || result === undefined) return undefined;
    if (typeof result === 'string') {
      reasons.set(op.name, result);
      return undefined;
    }
    roles.push(result);
    return result;
  };
  const listing = claim(list, list && listRole(ctx, list, item, target, notes));
  const created = claim(create, create && writeRole(ctx, 'create', create, item, target));
  if (readRole) roles.push(readRole);
  const replace = byMethod(itemOps, 'PUT');
  const replaced = claim(replace, replace && writeRole(ctx, 'replace', replace, item, target));
  const update = byMethod(itemOps, 'PATCH');
  claim(update, update && writeRole(ctx, 'update', update, item, target));
  const remove = byMethod(itemOps, 'DELETE');
  claim(remove, remove && writeRole(ctx, 'delete', remove, item, target));
  if (collectionPut) {
    const beside = replaced && replace;
    claim(collectionPut, collectionReplace(ctx, collectionPut, item, property, target, beside));
  }

  if (readRole === undefined && !(listing && created)) {
    return noResource(collection, itemPath, listing !== undefined);
  }

  let fromClient: ResourceKey['fromClient'] = 'never';
  if (create && created) {
    fromClient = fromClientOf(ctx, create, created, item, property);
    // A taken key is refused with the contract's 409, else its 400 where the client names keys.
    const conflict = documentsStatus(create, 409)
      ? 409
      : fromClient !== 'never' && documentsStatus(create, 400)
        ? 400
        : undefined;
    roles[roles.indexOf(created)] = { ...created, conflict };
  }
  for (const role of roles) {
    ctx.claimed.add(role.operation);
    reasons.delete(role.operation);
  }
  return {
    collectionPath: collection,
    itemPath,
    key: {
      property,
      parameter,
      kind,
      format: views.view(keySchema).format,
      fromClient,
    },
    itemSchema: item,
    writeOnly: [...views.view(item).properties]
      .filter(([, schemas]) => schemas.some((schema) => views.view(schema).writeOnly))
      .map(([name]) => name),
    operations: roles,
    hints: notes,
  };
}

/**
 * A GET on a path below a resource's collection (`/pet/findByStatus` below `/pet`) that answers
 * a list of its item is another list of it: a search path.
 */
function addSearchLists(
  ctx: InferenceContext,
  drafts: readonly Draft[],
  ops: readonly Operation[],
): void {
  const byCollection = new Map(drafts.map((draft) => [draft.collectionPath, draft]));
  for (const op of ops) {
    if (op.method !== 'GET' || ctx.claimed.has(op.name)) continue;
    if (ctx.hints.stateless.get(op.name)?.value === true) continue;
    const segments = op.pathKey.split('/');
    const draft = isLiteral(segments.at(-1) ?? '')
      ? byCollection.get(segments.slice(0, -1).join('/'))
      : undefined;
    const success = draft && successOf(ctx.document, op, () => 200);
    if (!draft || !success?.json || !listAnswerOf(ctx.views, success.schema, draft.itemSchema)) {
      continue;
    }
    const role = listRole(
      ctx,
      op,
      draft.itemSchema,
      draft.itemPath ?? draft.collectionPath,
      draft.hints,
    );
    if (typeof role === 'string') {
      ctx.reasons.set(op.name, `as a list of ${draft.collectionPath}: ${role}`);
      continue;
    }
    draft.operations.push(role);
    ctx.claimed.add(op.name);
    ctx.reasons.delete(op.name);
  }
}

/** The resources, named and nested. */
function finish(drafts: readonly Draft[]): Resource[] {
  const names = uniqueNames(drafts.map((draft) => draft.collectionPath));
  const named = drafts.map((draft, i) => ({ ...draft, name: names[i] ?? '' }));
  return named.map((draft) => ({
    name: draft.name,
    collectionPath: draft.collectionPath,
    itemPath: draft.itemPath,
    parent: parentOf(draft.collectionPath, named),
    key: draft.key,
    itemSchema: draft.itemSchema,
    writeOnly: draft.writeOnly,
    operations: [...draft.operations].sort(
      (a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role),
    ),
    hints: draft.hints,
  }));
}
