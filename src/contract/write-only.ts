import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { derefSchema } from './schema-refs.js';

/** What a schema says of an object's properties, its `$ref`s, allOf, oneOf and anyOf taken together. */
interface Shape {
  readonly properties: Map<string, Record<string, unknown>[]>;
  readonly additional: Record<string, unknown>[];
  readonly items: Record<string, unknown>[];
}

/** The schemas a schema is made of: itself, and what its `$ref`s, allOf, oneOf and anyOf reach. */
function partsOf(document: OpenApiDocument, schema: unknown): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    const target = derefSchema(document, node, '/response');
    if (!isRecord(target) || seen.has(target)) return;
    seen.add(target);
    parts.push(target);
    for (const kind of ['allOf', 'oneOf', 'anyOf']) {
      const members = target[kind];
      if (Array.isArray(members)) members.forEach(visit);
    }
  };
  visit(schema);
  return parts;
}

function shapeOf(document: OpenApiDocument, schema: unknown): Shape {
  const shape: Shape = { properties: new Map(), additional: [], items: [] };
  for (const part of partsOf(document, schema)) {
    if (isRecord(part.properties)) {
      for (const [name, property] of Object.entries(part.properties)) {
        const target = derefSchema(document, property, '/response');
        if (isRecord(target)) {
          shape.properties.set(name, [...(shape.properties.get(name) ?? []), target]);
        }
      }
    }
    if (isRecord(part.additionalProperties)) shape.additional.push(part.additionalProperties);
    if (isRecord(part.items)) shape.items.push(part.items);
  }
  return shape;
}

function oneOrAll(schemas: readonly Record<string, unknown>[]): unknown {
  return schemas.length === 1 ? schemas[0] : { allOf: schemas };
}

/** Whether a schema, or any schema it reaches, marks a property writeOnly. */
export function reachesWriteOnly(document: OpenApiDocument, schema: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    const target = derefSchema(document, node, '/response');
    if (Array.isArray(target)) return target.some(visit);
    if (!isRecord(target) || seen.has(target)) return false;
    seen.add(target);
    return target.writeOnly === true || Object.values(target).some(visit);
  };
  return visit(schema);
}

/**
 * The value without the properties its schema marks writeOnly, at any depth: a property only
 * ever written never appears in an answer. Values are kept as they are (int64 bigints included);
 * objects and arrays are copied.
 */
export function withoutWriteOnly(
  document: OpenApiDocument,
  schema: unknown,
  value: unknown,
): unknown {
  if (Array.isArray(value)) {
    const { items } = shapeOf(document, schema);
    return items.length === 0
      ? value
      : value.map((item) => withoutWriteOnly(document, oneOrAll(items), item));
  }
  if (!isRecord(value)) return value;
  const { properties, additional } = shapeOf(document, schema);
  const kept: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const declared = properties.get(name);
    if (declared?.some((property) => property.writeOnly === true)) continue;
    const schemas = declared ?? additional;
    kept[name] =
      schemas.length === 0 ? child : withoutWriteOnly(document, oneOrAll(schemas), child);
  }
  return kept;
}
