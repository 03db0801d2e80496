import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { derefSchema } from './schema-refs.js';

const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const INTEGER = /^-?\d+$/;

/** The types a schema allows, through its `$ref`, allOf, oneOf and anyOf. */
function typesOf(
  document: OpenApiDocument,
  schema: unknown,
  seen = new Set<unknown>(),
): Set<string> {
  const types = new Set<string>();
  let node: unknown;
  try {
    node = derefSchema(document, schema, '/body');
  } catch {
    return types;
  }
  if (!isRecord(node) || seen.has(node)) return types;
  seen.add(node);
  const own = node.type;
  for (const type of Array.isArray(own) ? own : [own])
    if (typeof type === 'string') types.add(type);
  if (types.size === 0 && isRecord(node.properties)) types.add('object');
  if (types.size === 0 && node.items !== undefined) types.add('array');
  for (const kind of ['allOf', 'oneOf', 'anyOf']) {
    const members: unknown = node[kind];
    if (!Array.isArray(members)) continue;
    for (const member of members)
      for (const type of typesOf(document, member, seen)) types.add(type);
  }
  return types;
}

/** A subschema by a keyword (`items`), or a property's, through `$ref`, allOf, oneOf and anyOf. */
function partOf(
  document: OpenApiDocument,
  schema: unknown,
  pick: (node: Record<string, unknown>) => unknown,
  seen = new Set<unknown>(),
): unknown {
  let node: unknown;
  try {
    node = derefSchema(document, schema, '/body');
  } catch {
    return undefined;
  }
  if (!isRecord(node) || seen.has(node)) return undefined;
  seen.add(node);
  const own = pick(node);
  if (own !== undefined) return own;
  for (const kind of ['allOf', 'oneOf', 'anyOf']) {
    const members: unknown = node[kind];
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      const found = partOf(document, member, pick, seen);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The separator of a list written in one field: a form's `explode: false` writes `a,b,c`. */
function separatorOf(encoding: unknown): string | undefined {
  if (!isRecord(encoding)) return undefined;
  if (encoding.style === 'pipeDelimited') return '|';
  if (encoding.style === 'spaceDelimited') return ' ';
  return encoding.explode === false ? ',' : undefined;
}

/** A field's text as the type its schema says, where it reads as one; else as it is. */
function coerce(
  document: OpenApiDocument,
  schema: unknown,
  value: unknown,
  separator?: string,
): unknown {
  const types = typesOf(document, schema);
  if (types.has('array')) {
    const items = partOf(document, schema, (node) => node.items);
    const list: unknown[] = Array.isArray(value)
      ? value
      : typeof value === 'string' && separator !== undefined
        ? value.split(separator)
        : [value];
    return list.map((item) => coerce(document, items, item));
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const property = partOf(document, schema, (node) =>
        isRecord(node.properties) ? node.properties[key] : undefined,
      );
      out[key] = coerce(document, property, child);
    }
    return out;
  }
  if (typeof value !== 'string' || types.has('string')) return value;
  if (types.has('integer') && INTEGER.test(value)) return Number(value);
  if (types.has('number') && DECIMAL.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('null') && value === '') return null;
  return value;
}

/**
 * The fields of a form or multipart body, typed by the media type's schema: a form carries only
 * text, so `5` becomes 5 where the schema says integer, `true` a boolean, one value a list where
 * it says array (split at commas for an `explode: false` encoding); objects written
 * `a[b]=c` are typed property by property. A value that does not read as its type stays text,
 * for the validator to refuse.
 */
export function coerceFields(
  document: OpenApiDocument,
  media: { readonly schema: unknown; readonly encoding: Readonly<Record<string, unknown>> },
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const property = partOf(document, media.schema, (node) =>
      isRecord(node.properties) ? node.properties[name] : undefined,
    );
    out[name] = coerce(document, property, value, separatorOf(media.encoding[name]));
  }
  return out;
}
