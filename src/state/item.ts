import { compareInt64, parseInt64, type Int64 } from '../util/int64.js';
import { isRecord } from '../util/is-record.js';
import type { ResourceKey } from '../contract/resource-model.js';

/** An item of a resource as stored: JSON, int64 values beyond 2^53 as bigints. */
export type Item = Readonly<Record<string, unknown>>;

/**
 * Where items sit: a resource, and for a nested one the keys (as text) of the items it is under,
 * outermost first: orders of user 7 are `{resource: 'users.orders', parents: ['7']}`.
 */
export interface ItemPlace {
  readonly resource: string;
  readonly parents: readonly string[];
}

/** How a create names its item: the client's key, or one the store makes (per session, counted). */
export type NewKey =
  | { readonly property: string; readonly chosen: string | Int64 }
  | { readonly property: string; readonly chosen: undefined; readonly kind: ResourceKey['kind'] };

/** What a create did: stored the item (its key set), or found its key taken (nothing stored). */
export type Created = { readonly item: Item } | { readonly taken: string };

/** One text per place, for maps: the resource and its parents' keys. */
export function placeId(place: ItemPlace): string {
  return place.parents.length === 0
    ? place.resource
    : JSON.stringify([place.resource, ...place.parents]);
}

/** A key's text, as in a path: `7`, `9223372036854775807`, `alice`. */
export function keyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) {
    return value.toString();
  }
  return undefined;
}

/** An item's key as text, if it has one. */
export function itemKeyText(item: Item, property: string): string | undefined {
  return keyText(item[property]);
}

/**
 * Key order: integers by value (`2` before `10`), then any other text in code-unit order. Every
 * backend lists in this order. Keys of one value (`07`, `7`) are two keys, in code-unit order:
 * only the same text compares equal, which the memory store's sorted search needs.
 */
export function compareKeys(a: string, b: string): number {
  const x = parseInt64(a);
  const y = parseInt64(b);
  if (x !== undefined && y !== undefined) return compareInt64(x, y) || compareText(a, b);
  if (x !== undefined) return -1;
  if (y !== undefined) return 1;
  return compareText(a, b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The key the store makes for the `n`th item of a resource in a session: `n` itself for integer
 * keys, a UUID for uuid ones (version 4 in form, `n` in its last group: unique and readable), its
 * digits for other strings.
 */
export function madeKey(kind: ResourceKey['kind'], n: Int64): string | Int64 {
  if (kind === 'integer') return n;
  if (kind === 'string') return n.toString();
  const hex = BigInt(n).toString(16).padStart(12, '0').slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}

/** Whether a stored value is an item (a JSON object). */
export function isItem(value: unknown): value is Item {
  return isRecord(value);
}

/** The resource of a place, from its id (placeId). */
export function resourceOfPlace(id: string): string {
  if (!id.startsWith('[')) return id;
  const parsed: unknown = JSON.parse(id);
  return Array.isArray(parsed) && typeof parsed[0] === 'string' ? parsed[0] : id;
}
