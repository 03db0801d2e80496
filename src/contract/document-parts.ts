import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';

/** Follows a `#/components/<kind>/<name>` reference of the document, once; other values as is. */
export function resolved(document: OpenApiDocument, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string') return value;
  const [hash, components, kind, name] = value.$ref.split('/');
  if (hash !== '#' || components !== 'components' || kind === undefined || name === undefined) {
    return value;
  }
  const all: unknown = document.components;
  const group = isRecord(all) ? all[kind] : undefined;
  return isRecord(group) ? group[name] : undefined;
}

/** The schema of the `application/json` content of a request body or response, if any. */
export function jsonSchemaOf(document: OpenApiDocument, carrier: unknown): unknown {
  const body = resolved(document, carrier);
  const content = isRecord(body) ? body.content : undefined;
  const json = isRecord(content) ? content['application/json'] : undefined;
  return isRecord(json) ? json.schema : undefined;
}

/** The operation object of a path item for a method, e.g. `get`. */
export function operationObject(
  document: OpenApiDocument,
  pathKey: string,
  method: string,
): Record<string, unknown> | undefined {
  const item: unknown = document.paths[pathKey];
  const op = isRecord(item) ? item[method.toLowerCase()] : undefined;
  return isRecord(op) ? op : undefined;
}

/**
 * The parameters of an operation: the path item's, overridden by the operation's of the same
 * name and location (as OpenAPI says), references followed.
 */
export function parametersOf(
  document: OpenApiDocument,
  pathKey: string,
  method: string,
): Record<string, unknown>[] {
  const item: unknown = document.paths[pathKey];
  const lists = [
    isRecord(item) ? item.parameters : undefined,
    operationObject(document, pathKey, method)?.parameters,
  ];
  const byKey = new Map<string, Record<string, unknown>>();
  for (const list of lists) {
    for (const entry of Array.isArray(list) ? list : []) {
      const p = resolved(document, entry);
      if (isRecord(p) && typeof p.name === 'string' && typeof p.in === 'string') {
        byKey.set(`${p.in}:${p.name}`, p);
      }
    }
  }
  return [...byKey.values()];
}
