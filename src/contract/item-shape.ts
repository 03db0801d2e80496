import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { mergeSchemas } from './schema-merge.js';
import { derefSchema } from './schema-refs.js';

/** What a resource's item schema says of its top-level properties, for the resource engine. */
export interface ItemShape {
  /** Its declared properties; undefined where it declares none (any property is kept). */
  readonly declared: ReadonlySet<string> | undefined;
  /** Properties the server fills (`readOnly`): a client's values for them are not kept. */
  readonly readOnly: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
  /** Properties with a `default`, and its value. */
  readonly defaults: ReadonlyMap<string, unknown>;
  /** Each declared property's schema (its schemas in an allOf taken together). */
  readonly schemas: ReadonlyMap<string, unknown>;
}

/** Reads an item schema's top-level properties, its `$ref`s and allOf members taken together. */
export function itemShapeOf(document: OpenApiDocument, schema: unknown): ItemShape {
  const merged = mergeSchemas(document, [schema], '/item');
  const readOnly = new Set<string>();
  const defaults = new Map<string, unknown>();
  for (const [name, schemas] of merged.properties) {
    for (const part of schemas) {
      const own = derefSchema(document, part, '/item');
      if (!isRecord(own)) continue;
      if (own.readOnly === true) readOnly.add(name);
      if ('default' in own && !defaults.has(name)) defaults.set(name, structuredClone(own.default));
    }
  }
  const declared = merged.properties.size === 0 ? undefined : new Set(merged.properties.keys());
  const schemas = new Map(
    [...merged.properties].map(([name, parts]) => [
      name,
      parts.length === 1 ? parts[0] : { allOf: parts },
    ]),
  );
  return { declared, readOnly, required: merged.required, defaults, schemas };
}

/**
 * A property's schema without its own `example`, `examples` and `default`: what new, distinct
 * values (keys) are generated from. The generator prefers a schema's example, the same each time.
 */
export function freshValueSchema(document: OpenApiDocument, schema: unknown): unknown {
  const own = derefSchema(document, schema, '/item');
  if (!isRecord(own)) return own;
  return Object.fromEntries(
    Object.entries(own).filter(([name]) => !['example', 'examples', 'default'].includes(name)),
  );
}
