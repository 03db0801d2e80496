import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { SchemaError, followRef } from './schema-refs.js';

// A schema's keywords merged with those of the schemas it takes in (its $ref, its allOf members,
// the oneOf and anyOf branches the generator picks): one record of what a value must keep to.

/** JSON Schema's types; `integer` is a number that is whole. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
const JSON_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'null',
]);

/** A lower or upper bound of a number, and whether the bound itself is excluded. */
export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

/** A oneOf or anyOf whose branch is yet to be picked, with its discriminator if it has one. */
export interface Choice {
  readonly kind: 'oneOf' | 'anyOf';
  readonly branches: readonly unknown[];
  readonly discriminator:
    { readonly property: string; readonly keys: ReadonlyMap<unknown, string> } | undefined;
}

/** What every schema met on the way (allOf members, chosen branches, `$ref` targets) asks of a value. */
export interface Merged {
  types: Set<JsonType> | undefined;
  enums: unknown[] | undefined;
  constant: { value: unknown } | undefined;
  properties: Map<string, unknown[]>;
  required: Set<string>;
  /** The property names of each member with `additionalProperties: false`. */
  closed: Set<string>[];
  additional: unknown[];
  items: unknown[];
  prefixItems: readonly unknown[] | undefined;
  minItems: number;
  maxItems: number;
  uniqueItems: boolean;
  minLength: number;
  maxLength: number;
  patterns: string[];
  format: string | undefined;
  lower: Bound | undefined;
  upper: Bound | undefined;
  multipleOf: number[];
  minProperties: number;
  maxProperties: number;
  writeOnly: boolean;
  choices: Choice[];
  nots: unknown[];
  /** Values a chosen discriminator sets. */
  fixed: Map<string, unknown>;
}

function emptyMerged(): Merged {
  return {
    types: undefined,
    enums: undefined,
    constant: undefined,
    properties: new Map(),
    required: new Set(),
    closed: [],
    additional: [],
    items: [],
    prefixItems: undefined,
    minItems: 0,
    maxItems: Infinity,
    uniqueItems: false,
    minLength: 0,
    maxLength: Infinity,
    patterns: [],
    format: undefined,
    lower: undefined,
    upper: undefined,
    multipleOf: [],
    minProperties: 0,
    maxProperties: Infinity,
    writeOnly: false,
    choices: [],
    nots: [],
    fixed: new Map(),
  };
}

export function copyMerged(m: Merged): Merged {
  return {
    ...m,
    types: m.types && new Set(m.types),
    enums: m.enums && [...m.enums],
    properties: new Map([...m.properties].map(([name, list]) => [name, [...list]])),
    required: new Set(m.required),
    closed: [...m.closed],
    additional: [...m.additional],
    items: [...m.items],
    patterns: [...m.patterns],
    multipleOf: [...m.multipleOf],
    choices: [...m.choices],
    nots: [...m.nots],
    fixed: new Map(m.fixed),
  };
}

function typesOf(schema: Record<string, unknown>): Set<JsonType> | undefined {
  const { type } = schema;
  const listed = Array.isArray(type) ? type : typeof type === 'string' ? [type] : undefined;
  if (!listed) return undefined;
  const types = new Set(listed.filter((t): t is JsonType => JSON_TYPES.has(String(t))));
  // OpenAPI 3.0's nullable; 3.1 writes `type: [x, 'null']`.
  if (schema.nullable === true) types.add('null');
  return types;
}

/** Types both allow; an integer is a number. */
function intersectTypes(a: Set<JsonType>, b: Set<JsonType>): Set<JsonType> {
  const both = new Set<JsonType>();
  for (const t of a) {
    if (b.has(t)) both.add(t);
    else if (t === 'integer' && b.has('number')) both.add('integer');
    else if (t === 'number' && b.has('integer')) both.add('integer');
  }
  return both;
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

export function typeAllows(types: Set<JsonType> | undefined, value: unknown): boolean {
  if (!types) return true;
  const type = jsonTypeOf(value);
  if (types.has(type)) return true;
  return type === 'number' && types.has('integer') && Number.isInteger(value);
}

/** The stricter of two lower (or, with `upper`, upper) bounds. */
export function stricter(
  a: Bound | undefined,
  b: Bound | undefined,
  upper: boolean,
): Bound | undefined {
  if (!a || !b) return a ?? b;
  if (a.value === b.value) return a.exclusive ? a : b;
  return a.value > b.value !== upper ? a : b;
}

function boundOf(schema: Record<string, unknown>, upper: boolean): Bound | undefined {
  const plain = schema[upper ? 'maximum' : 'minimum'];
  const exclusive = schema[upper ? 'exclusiveMaximum' : 'exclusiveMinimum'];
  // 3.0 flags the bound itself as exclusive; 3.1 (JSON Schema) gives the exclusive bound.
  const fromPlain =
    typeof plain === 'number' ? { value: plain, exclusive: exclusive === true } : undefined;
  const fromExclusive =
    typeof exclusive === 'number' ? { value: exclusive, exclusive: true } : undefined;
  return stricter(fromPlain, fromExclusive, upper);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** Equal JSON values give equal keys, whatever the order of their properties (uniqueItems). */
export function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableKey(value[k])}`).join(',')}}`;
  }
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

/** What the schemas ask of one value, their `$ref`s, allOf members and siblings merged. */
export function mergeSchemas(
  document: OpenApiDocument,
  schemas: readonly unknown[],
  where: string,
): Merged {
  const merged = emptyMerged();
  for (const schema of schemas) mergeInto(document, merged, schema, where);
  return merged;
}

/**
 * Adds what a schema asks of a value to `m`: its `$ref` target, its allOf members (merged), its
 * oneOf and anyOf (kept as choices, for the caller to pick a branch and merge it in).
 */
export function mergeInto(
  document: OpenApiDocument,
  m: Merged,
  schema: unknown,
  where: string,
  refs: ReadonlySet<string> = new Set(),
): void {
  if (schema === false) throw new SchemaError(where, 'the schema `false` accepts no value');
  if (!isRecord(schema)) return;
  const { $ref, ...rest } = schema;
  if (typeof $ref === 'string') {
    if (refs.has($ref)) throw new SchemaError(where, `$ref ${$ref} includes itself through allOf`);
    const inner = new Set(refs).add($ref);
    mergeInto(document, m, followRef(document, $ref, where), where, inner);
    // Siblings of a $ref count in 3.1; in 3.0 they are annotations, which add nothing here.
    mergeInto(document, m, rest, where, inner);
    return;
  }
  const s = schema;
  const types = typesOf(s);
  if (types) m.types = m.types ? intersectTypes(m.types, types) : types;
  if (Array.isArray(s.enum)) {
    const listed: unknown[] = s.enum;
    // 3.0's nullable lets null through an enum that does not list it.
    const values = s.nullable === true ? [...listed, null] : listed;
    m.enums = m.enums
      ? m.enums.filter((v) => values.some((w) => stableKey(w) === stableKey(v)))
      : [...values];
  }
  if ('const' in s) m.constant = { value: s.const };
  if (isRecord(s.properties)) {
    for (const [name, property] of Object.entries(s.properties)) {
      m.properties.set(name, [...(m.properties.get(name) ?? []), property]);
    }
  }
  if (Array.isArray(s.required)) for (const name of s.required) m.required.add(String(name));
  if (s.additionalProperties === false) {
    m.closed.push(new Set(isRecord(s.properties) ? Object.keys(s.properties) : []));
  } else if (isRecord(s.additionalProperties)) {
    m.additional.push(s.additionalProperties);
  }
  if (isRecord(s.items)) m.items.push(s.items);
  if (Array.isArray(s.prefixItems)) m.prefixItems ??= s.prefixItems;
  m.minItems = Math.max(m.minItems, numberOr(s.minItems, 0));
  m.maxItems = Math.min(m.maxItems, numberOr(s.maxItems, Infinity));
  m.uniqueItems ||= s.uniqueItems === true;
  m.minLength = Math.max(m.minLength, numberOr(s.minLength, 0));
  m.maxLength = Math.min(m.maxLength, numberOr(s.maxLength, Infinity));
  if (typeof s.pattern === 'string') m.patterns.push(s.pattern);
  if (typeof s.format === 'string') m.format ??= s.format;
  m.lower = stricter(m.lower, boundOf(s, false), false);
  m.upper = stricter(m.upper, boundOf(s, true), true);
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) m.multipleOf.push(s.multipleOf);
  m.minProperties = Math.max(m.minProperties, numberOr(s.minProperties, 0));
  m.maxProperties = Math.min(m.maxProperties, numberOr(s.maxProperties, Infinity));
  m.writeOnly ||= s.writeOnly === true;
  if (Array.isArray(s.allOf))
    for (const member of s.allOf) mergeInto(document, m, member, where, refs);
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const branches = s[kind];
    if (Array.isArray(branches) && branches.length > 0) {
      m.choices.push({ kind, branches, discriminator: discriminatorOf(s, branches) });
    }
  }
  if (s.not !== undefined) m.nots.push(s.not);
}

/** The mapping key of each `$ref` branch: the mapping's, or else the schema's name. */
function discriminatorOf(
  schema: Record<string, unknown>,
  branches: readonly unknown[],
): Choice['discriminator'] {
  const { discriminator } = schema;
  if (!isRecord(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  const mapping = isRecord(discriminator.mapping) ? discriminator.mapping : {};
  const keys = new Map<unknown, string>();
  for (const branch of branches) {
    const ref = isRecord(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
    if (ref === undefined) continue;
    const mapped = Object.entries(mapping).find(([, target]) => {
      const full =
        typeof target === 'string' && !target.includes('/')
          ? `#/components/schemas/${target}`
          : target;
      return full === ref;
    });
    keys.set(branch, mapped?.[0] ?? ref.slice(ref.lastIndexOf('/') + 1));
  }
  return { property: discriminator.propertyName, keys };
}
