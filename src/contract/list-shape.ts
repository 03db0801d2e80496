import type { ListShape, Paging } from './resource-model.js';
import type { SchemaViews } from './schema-view.js';

// How a list answers its items (a bare array, or an envelope with one array of them, a total and
// a next page) and which of its query parameters page it or filter it. Names are compared
// without case, `_` nor `-` (`per_page`, `perPage` and `per-page` are one name): the lists below
// hold names so written.

/** Envelope properties holding the total count of items. */
const TOTAL_NAMES: ReadonlySet<string> = new Set([
  'total',
  'totalcount',
  'count',
  'totalresults',
  'totalitems',
  'totalelements',
  'totalrecords',
  'totalentries',
  'totalsize',
  'totalhits',
]);

/** Envelope properties holding the next page: a link, or a cursor to send back. */
const NEXT_NAMES: ReadonlySet<string> = new Set([
  'next',
  'nextcursor',
  'nextpage',
  'nextpagetoken',
  'nexttoken',
  'nextlink',
  'nexturl',
  'nexturi',
  'nextpageuri',
  'nextpagelink',
  'nextpageurl',
  'nexthref',
  'odata.nextlink',
  'continuationtoken',
  'nextmarker',
  'nextoffset',
]);

/** Query parameters that say how many items a page holds. */
const SIZE_NAMES: ReadonlySet<string> = new Set([
  'limit',
  'perpage',
  'pagesize',
  'size',
  'count',
  'maxresults',
  'top',
  '$top',
  'max',
  'maxitems',
  'pagelen',
  'pagelimit',
  'take',
  'itemsperpage',
  'resultsperpage',
]);

/** Query parameters that say where a page starts, by how they say it. */
const START_NAMES: ReadonlyMap<string, 'offset' | 'page' | 'cursor' | 'after'> = new Map([
  ['offset', 'offset'],
  ['skip', 'offset'],
  ['$skip', 'offset'],
  ['startat', 'offset'],
  ['start', 'offset'],
  ['startindex', 'offset'],
  ['page', 'page'],
  ['pagenumber', 'page'],
  ['pagenum', 'page'],
  ['pageno', 'page'],
  ['pageindex', 'page'],
  ['cursor', 'cursor'],
  ['pagetoken', 'cursor'],
  ['pagecursor', 'cursor'],
  ['nexttoken', 'cursor'],
  ['nextpagetoken', 'cursor'],
  ['continuation', 'cursor'],
  ['continuationtoken', 'cursor'],
  ['marker', 'cursor'],
  ['startingtoken', 'cursor'],
  ['startingafter', 'after'],
  ['after', 'after'],
  ['afterid', 'after'],
  ['since', 'after'],
  ['sinceid', 'after'],
]);

/** Formats of a string that holds a whole number. */
const NUMERIC_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64', 'integer']);

/**
 * Query parameters that shape an answer rather than select its items, though an item may have
 * a property of their name (Jira's items carry `expand`).
 */
const SHAPING_NAMES: ReadonlySet<string> = new Set([
  'expand',
  'fields',
  'include',
  'exclude',
  'embed',
  'select',
  'sort',
  'sortby',
  'orderby',
  'order',
  'direction',
  'format',
]);

/** Formats of a string that is a link. */
const LINK_FORMATS: ReadonlySet<string> = new Set([
  'uri',
  'uri-reference',
  'url',
  'iri',
  'iri-reference',
]);

/** Properties of a next-page object holding its link, or else its cursor. */
const LINK_CHILDREN: readonly string[] = ['href', 'uri', 'url', 'link'];
const CURSOR_CHILDREN: readonly string[] = ['cursor', 'offset', 'token', 'after'];

/** Objects of an envelope whose properties are links (`links: {next: …}`, HAL's `_links`). */
const LINK_OBJECTS: ReadonlySet<string> = new Set(['links', 'link', 'pages']);

/** How deep inside an envelope a total or a next page is looked for (`links.pages.next`). */
const ENVELOPE_DEPTH = 3;

/** A name as the lists above hold it: lower case, without `_` nor `-`. */
export function plainName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Where a list's answer carries its items. */
export interface ListAnswer {
  /** The envelope's array property; undefined for a bare array. */
  readonly itemsProperty: string | undefined;
  /** The schema of one of its items. */
  readonly element: unknown;
}

/**
 * How a list's answer carries the items of `item`: a bare array of it, or an object with exactly
 * one array property of it. Without an item (a list and a create with no read), the element of
 * a bare array of objects, or of an envelope's only array property of objects.
 */
export function listAnswerOf(
  views: SchemaViews,
  answer: unknown,
  item: unknown,
): ListAnswer | undefined {
  const fits = (element: unknown): boolean =>
    item === undefined ? views.isObject(element) : views.same(element, item);
  if (views.isArray(answer)) {
    const element = views.view(answer).items;
    return fits(element) ? { itemsProperty: undefined, element } : undefined;
  }
  if (!views.isObject(answer)) return undefined;
  const arrays = [...views.view(answer).properties].filter(
    ([, schemas]) => views.isArray(schemas[0]) && fits(views.view(schemas[0]).items),
  );
  const [only] = arrays;
  if (only === undefined || arrays.length > 1) return undefined;
  const [itemsProperty, [schema]] = only;
  return { itemsProperty, element: views.view(schema).items };
}

/** A property found inside an envelope: its dotted path, its schema and whether a link object holds it. */
interface Found {
  readonly path: string;
  readonly schema: unknown;
  readonly inLinks: boolean;
}

/**
 * The first property of the envelope (breadth first, so its own before those of its objects)
 * whose name is one of `names`, the items property aside.
 */
function findInEnvelope(
  views: SchemaViews,
  envelope: unknown,
  itemsProperty: string | undefined,
  names: ReadonlySet<string>,
  accepts: (schema: unknown) => boolean,
): Found | undefined {
  let level: Found[] = [{ path: '', schema: envelope, inLinks: false }];
  const seen = new Set<unknown>();
  for (let depth = 0; depth < ENVELOPE_DEPTH && level.length > 0; depth += 1) {
    const next: Found[] = [];
    for (const { path, schema, inLinks } of level) {
      if (seen.has(schema)) continue;
      seen.add(schema);
      for (const [name, [child]] of views.view(schema).properties) {
        if (depth === 0 && name === itemsProperty) continue;
        const at = path === '' ? name : `${path}.${name}`;
        if (names.has(plainName(name)) && accepts(child))
          return { path: at, schema: child, inLinks };
        if (views.isObject(child)) {
          const links = inLinks || LINK_OBJECTS.has(plainName(name).replace(/^_/, ''));
          next.push({ path: at, schema: child, inLinks: links });
        }
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * The envelope's total and next page. Both may sit in an object of the envelope (`meta.total`,
 * `links.pages.next`): their property is then a dotted path. A next page is a link where its
 * format says URI, its name ends in url, link, href or uri, or it sits in a links object
 * (`links`, `_links`, `pages`); else a cursor. A next page that is an object is its link
 * (`href`, `uri`, `url`, `link`: HAL's `_links.next.href`, Asana's `next_page.uri`), else its
 * cursor (`cursor`, `offset`, `token`).
 */
function envelopeOf(
  views: SchemaViews,
  envelope: unknown,
  itemsProperty: string,
): Pick<ListShape, 'totalProperty' | 'next'> {
  const isNumber = (schema: unknown): boolean => {
    const { types } = views.view(schema);
    return types.has('integer') || types.has('number');
  };
  const childOf = (schema: unknown, names: readonly string[]): string | undefined => {
    const own = views.view(schema).properties;
    return names.find((name) => own.has(name));
  };
  // Also a count named after the items: RealWorld's `articlesCount` beside `articles`.
  const totals = new Set([...TOTAL_NAMES, `${plainName(itemsProperty)}count`]);
  const total = findInEnvelope(views, envelope, itemsProperty, totals, isNumber);
  const next = findInEnvelope(
    views,
    envelope,
    itemsProperty,
    NEXT_NAMES,
    (schema) =>
      views.isScalar(schema) ||
      childOf(schema, LINK_CHILDREN) !== undefined ||
      childOf(schema, CURSOR_CHILDREN) !== undefined,
  );
  const totalProperty = total?.path;
  if (next === undefined) return { totalProperty, next: undefined };
  const link = childOf(next.schema, LINK_CHILDREN);
  if (link !== undefined)
    return { totalProperty, next: { property: `${next.path}.${link}`, kind: 'link' } };
  const cursor = childOf(next.schema, CURSOR_CHILDREN);
  if (cursor !== undefined) {
    return { totalProperty, next: { property: `${next.path}.${cursor}`, kind: 'cursor' } };
  }
  const { format } = views.view(next.schema);
  const name = plainName(next.path.split('.').at(-1) ?? '');
  const isLink =
    next.inLinks ||
    (format !== undefined && LINK_FORMATS.has(format)) ||
    /(?:url|link|href|uri)$/.test(name);
  return { totalProperty, next: { property: next.path, kind: isLink ? 'link' : 'cursor' } };
}

/** A query parameter of a list, as inference reads it. */
export interface QueryParameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: unknown;
}

/**
 * The paging parameters of a list, recognised by name: the first of each kind. A start written
 * as a string (an `offset` or `page` token) is a cursor; a page counts from the schema's
 * minimum when that is 0, else from 1.
 */
export function pagingOf(
  views: SchemaViews,
  parameters: readonly QueryParameter[],
): Paging | undefined {
  let size: Paging['size'];
  let start: Paging['start'];
  for (const { name, schema } of parameters) {
    const plain = plainName(name);
    const view = views.view(schema);
    // An integer written as a string (Jira's `startAt`: a string of format int64) counts too.
    const numeric =
      view.types.has('integer') ||
      view.types.has('number') ||
      (view.format !== undefined && NUMERIC_FORMATS.has(view.format));
    if (size === undefined && SIZE_NAMES.has(plain) && (numeric || view.types.size === 0)) {
      const fallback = typeof view.default === 'number' ? view.default : undefined;
      size = { parameter: name, default: fallback, maximum: view.maximum };
      continue;
    }
    const named = START_NAMES.get(plain);
    // A time (`since=2024-01-01T00:00:00Z`) selects by date, it starts no page after an item.
    const time = view.format === 'date' || view.format === 'date-time';
    if (start === undefined && named !== undefined && !time) {
      const kind = (named === 'offset' || named === 'page') && !numeric ? 'cursor' : named;
      const first = kind === 'page' && view.minimum !== 0 ? 1 : 0;
      start = { parameter: name, kind, first };
    }
  }
  return size === undefined && start === undefined ? undefined : { size, start };
}

/** The list's shape from its answer and query parameters; `filters` already chosen. */
export function listShapeOf(
  views: SchemaViews,
  answer: unknown,
  list: ListAnswer,
  filters: ListShape['filters'],
  paging: Paging | undefined,
): ListShape {
  const envelope =
    list.itemsProperty === undefined
      ? { totalProperty: undefined, next: undefined }
      : envelopeOf(views, answer, list.itemsProperty);
  return { itemsProperty: list.itemsProperty, ...envelope, filters, paging };
}

/**
 * The query parameters that filter a list by equality: those a hint maps to a property of the
 * item (`false`: none), else those named as one of its properties (exactly, else without case),
 * paging and parameters that shape the answer (`expand`, `sort`…) aside. Both sides must be plain values: a property or parameter that is an object, or
 * a property that is an array, is no equality; a parameter that is an array of plain values
 * asks for any of them (`status=available&status=sold`).
 */
export function filtersOf(
  views: SchemaViews,
  item: unknown,
  parameters: readonly QueryParameter[],
  paging: Paging | undefined,
  mapped: ReadonlyMap<string, string | false>,
): ListShape['filters'] {
  const properties = views.view(item).properties;
  const byLowerCase = new Map<string, string>();
  for (const name of properties.keys()) {
    if (!byLowerCase.has(name.toLowerCase())) byLowerCase.set(name.toLowerCase(), name);
  }
  const pagingNames = new Set([paging?.size?.parameter, paging?.start?.parameter]);
  const filters: { parameter: string; property: string }[] = [];
  for (const { name, schema } of parameters) {
    if (pagingNames.has(name)) continue;
    const hinted = mapped.get(name);
    if (hinted === false || (hinted === undefined && SHAPING_NAMES.has(plainName(name)))) continue;
    const property = hinted ?? (properties.has(name) ? name : byLowerCase.get(name.toLowerCase()));
    if (property === undefined) continue;
    const plain = views.isArray(schema) ? views.view(schema).items : schema;
    const [declared] = properties.get(property) ?? [];
    if (declared === undefined || !views.isScalar(declared) || !views.isScalar(plain)) continue;
    filters.push({ parameter: name, property });
  }
  return filters;
}
