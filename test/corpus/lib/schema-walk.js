/**
 * Every schema object of an OpenAPI document, visited as a schema: a properties map is never taken
 * for a schema, nor a schema for a properties map (a property may be called "properties").
 */
import { isObject } from './contract.js';

/** Keywords whose value is one subschema. */
const ONE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
];
/** Keywords whose value is a list of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value is a map of subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** Calls `visit(schema)` for `root` and each of its subschemas, children before their parent. */
export function walkSchema(root, visit, seen = new Set()) {
  const schema = (node) => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    for (const key of ONE) schema(node[key]);
    for (const key of LIST) if (Array.isArray(node[key])) node[key].forEach(schema);
    for (const key of MAP) if (isObject(node[key])) Object.values(node[key]).forEach(schema);
    visit(node);
  };
  schema(root);
}

/** Calls `visit(schema)` for each schema of `doc`, children before their parent. */
export function forEachSchema(doc, visit) {
  const seen = new Set();
  const schema = (node) => walkSchema(node, visit, seen);
  // Outside schemas: a `schema` member (parameters, media types, headers) starts one.
  const other = (node) => {
    if (Array.isArray(node)) node.forEach(other);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema') schema(value);
      else if (key !== 'example' && key !== 'examples') other(value);
    }
  };
  for (const value of Object.values(doc.components?.schemas ?? {})) schema(value);
  other({ ...doc, components: { ...doc.components, schemas: undefined } });
}
