import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';

/** A schema the mock cannot work with: a reference it cannot follow, or one with no value. */
export class SchemaError extends Error {
  override name = 'SchemaError';

  constructor(
    /** Where in the answer, e.g. `/response/items/0/name`. */
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

/** References followed in a row before a chain is taken for a loop. */
const MAX_HOPS = 32;

/** The value a local reference (`#/components/schemas/Pet`, any JSON pointer) names. */
export function followRef(document: OpenApiDocument, ref: string, where: string): unknown {
  if (!ref.startsWith('#')) {
    throw new SchemaError(where, `$ref ${ref}: only references inside the contract are followed`);
  }
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = Array.isArray(node) ? node[Number(key)] : isRecord(node) ? node[key] : undefined;
  }
  if (node === undefined) throw new SchemaError(where, `$ref ${ref} names nothing in the contract`);
  return node;
}

/** A schema with its `$ref` chain followed to the schema it names (siblings of a `$ref` dropped). */
export function derefSchema(document: OpenApiDocument, schema: unknown, where: string): unknown {
  let node = schema;
  for (let hops = 0; isRecord(node) && typeof node.$ref === 'string'; hops += 1) {
    if (hops === MAX_HOPS) throw new SchemaError(where, `$ref ${node.$ref} loops`);
    node = followRef(document, node.$ref, where);
  }
  return node;
}
