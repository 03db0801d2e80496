import type { ListShape, Paging } from '../contract/resource-model.js';
import { HttpError } from '../http/http-error.js';
import { isRecord } from '../util/is-record.js';
import { compareKeys, itemKeyText, keyText, type Item } from '../state/item.js';

/** Names of an envelope's boolean saying whether another page follows. */
const MORE_FLAGS = [
  'has_more',
  'hasMore',
  'has_next',
  'hasNext',
  'more',
  'has_next_page',
  'hasNextPage',
];

/** Page size where the contract names a start but no size, nor a default for it. */
const DEFAULT_PAGE_SIZE = 20;

/** One page of a list, and where the next one starts (undefined: this is the last). */
export interface ListPage {
  readonly items: readonly Item[];
  /** Items that match the filters, on every page. */
  readonly total: number;
  /** The query value of the start parameter for the next page, if there is one. */
  readonly nextStart: string | undefined;
}

/** A cursor: the key of the last item of a page, opaque to clients. */
function cursorOf(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

function keyOfCursor(cursor: string, parameter: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (cursorOf(key) !== cursor) {
    throw new HttpError(
      400,
      'bad_request',
      `Query parameter '${parameter}' is not a cursor this mock gave: ask without it for the first page.`,
    );
  }
  return key;
}

/** A query value as text, to compare with an item's value (numbers by value: `7.50` is 7.5). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return undefined;
}

/**
 * Whether an item's property equals a filter's query value (a repeated parameter: any of them).
 * A number is compared by value, whatever the query's spelling.
 */
function matches(item: Item, property: string, wanted: unknown): boolean {
  const actual = item[property];
  const text = textOf(actual);
  if (text === undefined) return false;
  const values: unknown[] = Array.isArray(wanted) ? wanted : [wanted];
  return values.some((value) =>
    typeof actual === 'number' && typeof value === 'string' && value.trim() !== ''
      ? Number(value) === actual
      : textOf(value) === text,
  );
}

/** A whole number the validator has read from the query (coerced), or undefined. */
function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/**
 * The page size asked for: the query's, else the contract's default, else every item. A size
 * below 1 (where the contract sets no minimum) counts as not given.
 */
function sizeOf(paging: Paging, query: Readonly<Record<string, unknown>>): number | undefined {
  const { size } = paging;
  if (!size) return paging.start ? DEFAULT_PAGE_SIZE : undefined;
  const asked = numberOf(query[size.parameter]);
  return (
    (asked !== undefined && asked >= 1 ? asked : undefined) ??
    size.default ??
    (paging.start ? DEFAULT_PAGE_SIZE : undefined)
  );
}

/**
 * Filters and pages the items of a collection (in key order) as a list's query asks: each filter
 * an equality on its property, then the page its paging parameters name.
 */
export function pageOf(
  all: readonly Item[],
  shape: ListShape,
  keyProperty: string,
  query: Readonly<Record<string, unknown>>,
): ListPage {
  const filters = shape.filters.filter((filter) => query[filter.parameter] !== undefined);
  const found =
    filters.length === 0
      ? all
      : all.filter((item) => filters.every((f) => matches(item, f.property, query[f.parameter])));
  const paging = shape.paging;
  if (!paging) return { items: found, total: found.length, nextStart: undefined };
  const size = sizeOf(paging, query);
  const { start } = paging;
  const value = start === undefined ? undefined : query[start.parameter];
  const asked = typeof value === 'string' ? value : keyText(value);
  let first = 0;
  if (start && asked !== undefined) {
    if (start.kind === 'offset') first = Math.max(0, numberOf(asked) ?? 0);
    else if (start.kind === 'page')
      first =
        Math.max(0, (numberOf(asked) ?? start.first) - start.first) * (size ?? DEFAULT_PAGE_SIZE);
    else {
      const key = start.kind === 'cursor' ? keyOfCursor(asked, start.parameter) : asked;
      // The first item after that key: also where its own item is gone (deleted since) or
      // filtered out.
      const after = found.findIndex(
        (item) => compareKeys(itemKeyText(item, keyProperty) ?? '', key) > 0,
      );
      first = after >= 0 ? after : found.length;
    }
  }
  const end = size === undefined ? found.length : first + size;
  const items = found.slice(first, end);
  const last = items.at(-1);
  let nextStart: string | undefined;
  if (start && end < found.length && last) {
    const lastKey = itemKeyText(last, keyProperty) ?? '';
    if (start.kind === 'offset') nextStart = String(end);
    else if (start.kind === 'page')
      nextStart = String(start.first + Math.floor(end / (size ?? DEFAULT_PAGE_SIZE)));
    else if (start.kind === 'cursor') nextStart = cursorOf(lastKey);
    else nextStart = lastKey;
  }
  return { items, total: found.length, nextStart };
}

/**
 * A copy of `value` with `path` (dotted: `meta.total`, `links.pages.next`) set to `to`, the
 * objects on the way copied or made; `to` undefined leaves the last property out, unless the
 * contract's own answer gives it as null (its way of saying "none").
 */
function withPath(value: unknown, path: readonly string[], to: unknown): Record<string, unknown> {
  const [name, ...rest] = path;
  const copy: Record<string, unknown> = isRecord(value) ? { ...value } : {};
  if (name === undefined) return copy;
  if (rest.length > 0) return { ...copy, [name]: withPath(copy[name], rest, to) };
  if (to !== undefined) return { ...copy, [name]: to };
  return Object.fromEntries(Object.entries(copy).filter(([key, v]) => key !== name || v === null));
}

/**
 * The list's answer: the page's items as a bare array, or in the contract's envelope (its example
 * or generated data) with the items, the total and the next link or cursor filled in (each where
 * the model places it, in a nested object too).
 */
export function listAnswer(
  page: ListPage,
  shape: ListShape,
  envelope: unknown,
  nextLink: (start: string) => string,
): unknown {
  if (shape.itemsProperty === undefined) return page.items;
  let body = withPath(envelope, [shape.itemsProperty], page.items);
  if (shape.totalProperty !== undefined) {
    body = withPath(body, shape.totalProperty.split('.'), page.total);
  }
  // A boolean saying whether more pages follow (Stripe's has_more), where the envelope has one.
  for (const name of MORE_FLAGS) {
    if (typeof body[name] === 'boolean') body[name] = page.nextStart !== undefined;
  }
  const { next } = shape;
  if (next) {
    const start = page.nextStart;
    const value = start === undefined ? undefined : next.kind === 'link' ? nextLink(start) : start;
    body = withPath(body, next.property.split('.'), value);
  }
  return body;
}
