import { shapeOf, type Operation } from './operation-index.js';
import type { Resource } from './resource-model.js';

// The paths of a contract as resource inference reads them: collection paths (their last
// segment written out: `/orders`, `/users/{userId}/orders`), item paths (a collection and one
// parameter: `/orders/{orderId}`), and the names and parents of the resources they make.

/** What a resource's parent is found among: each resource's paths, and its name. */
export interface NamedPaths {
  readonly name: string;
  readonly collectionPath: string;
  readonly itemPath: string | undefined;
}

/** Whether a path segment is written out (`orders`), not a parameter (`{orderId}`). */
export const isLiteral = (segment: string): boolean => segment !== '' && !segment.includes('{');

/**
 * A path without the format suffix of its last segment: Twilio's `/Calls.json` and
 * `/Calls/{Sid}.json` are a collection and its item path as `/Calls` and `/Calls/{Sid}` are.
 */
function splitFormat(path: string): { readonly stem: string; readonly suffix: string } {
  const found = /^(.*[^/])(\.(?:json|xml|ya?ml|csv|txt))$/i.exec(path);
  return found ? { stem: found[1] ?? path, suffix: found[2] ?? '' } : { stem: path, suffix: '' };
}

/** The parameter a path segment is, where it is exactly one (`{petId}`). */
function parameterOf(segment: string): string | undefined {
  return /^\{([^{}]+)\}$/.exec(segment)?.[1];
}

/** The parameter an item path ends in (`petId` of `/pets/{petId}`, `Sid` of `/Calls/{Sid}.json`). */
export function itemParameterOf(path: string | undefined): string | undefined {
  return path === undefined
    ? undefined
    : parameterOf(splitFormat(path).stem.split('/').at(-1) ?? '');
}

/** A resource's name: its collection path's written segments joined by `.` (`users.orders`). */
function nameOf(path: string): string {
  return splitFormat(path).stem.split('/').filter(isLiteral).join('.');
}

/** A path's shape without its parameters' names nor its format suffix (`/users/{}`). */
function bareShapeOf(path: string): string {
  return shapeOf(splitFormat(path).stem);
}

/** The collection and item paths of a contract, in the order the document writes them. */
export function candidatesOf(
  paths: readonly string[],
  reasons: Map<string, string>,
  opsAt: (path: string) => readonly Operation[],
): Map<string, string[]> {
  const candidates = new Map<string, string[]>();
  for (const path of paths) {
    const { stem, suffix } = splitFormat(path);
    const segments = stem.split('/');
    const last = segments.at(-1) ?? '';
    const parent = `${segments.slice(0, -1).join('/')}${suffix}`;
    if (isLiteral(last)) {
      if (!candidates.has(path)) candidates.set(path, []);
    } else if (parameterOf(last) !== undefined && isLiteral(segments.at(-2) ?? '')) {
      const items = candidates.get(parent) ?? [];
      items.push(path);
      candidates.set(parent, items);
    } else {
      const why =
        parameterOf(last) === undefined
          ? `${path} is neither a collection nor an item path`
          : `${path} names no item of a collection: ${parent || '/'} ends in a parameter`;
      for (const op of opsAt(path)) reasons.set(op.name, why);
    }
  }
  return candidates;
}

/** The last written segment of a path (`orders` of `/users/{userId}/orders`). */
export function lastLiteral(path: string): string {
  return splitFormat(path).stem.split('/').filter(isLiteral).at(-1) ?? '';
}

/**
 * The parent of a nested collection: the resource whose item path its path goes through (the
 * last parameter of `/users/{userId}/orders` names a user). Where that parent path has no
 * resource of its own (it reads nothing), the collection is still nested by the parameter:
 * `parent.resource` is the name that resource would have (`users`), or the parameter's own name
 * where no written segment comes before it (`/{tenant}/orders`); the model holds no resource of
 * that name, and the engine keeps each parent's items apart with no parent to find missing.
 */
export function parentOf(collection: string, resources: readonly NamedPaths[]): Resource['parent'] {
  const segments = collection.split('/');
  const index = segments.findLastIndex((segment) => segment.includes('{'));
  const parameter = parameterOf(segments[index] ?? '');
  if (parameter === undefined) return undefined;
  const parentItem = bareShapeOf(segments.slice(0, index + 1).join('/'));
  const parentCollection = segments.slice(0, index).join('/');
  const found =
    resources.find((r) => r.itemPath !== undefined && bareShapeOf(r.itemPath) === parentItem) ??
    resources.find((r) => bareShapeOf(r.collectionPath) === shapeOf(parentCollection));
  return { resource: found?.name ?? (nameOf(parentCollection) || parameter), parameter };
}

/** Names for collection paths, unique: a second `orders` is `orders-2`. */
export function uniqueNames(collectionPaths: readonly string[]): string[] {
  const taken = new Set<string>();
  return collectionPaths.map((path) => {
    const base = nameOf(path);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`;
    taken.add(name);
    return name;
  });
}
