import { isRecord } from '../util/is-record.js';
import { followRefs } from './json-pointer.js';
import { essenceOf } from './media-types.js';
import type { Operation } from './operation-index.js';
import type { OpenApiDocument } from './openapi-document.js';

/** The methods a path item may hold operations for, as OpenAPI writes them. */
export const HTTP_METHODS: readonly string[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

/** The documented answer for a status: exact (`201`), then its range (`2XX`), then `default`. */
export function responseKeyOf(
  responses: Readonly<Record<string, unknown>>,
  status: number,
): string | undefined {
  const range = `${Math.floor(status / 100)}XX`;
  return [String(status), range, range.toLowerCase(), 'default'].find((key) => key in responses);
}

/** What a local `$ref` (any JSON pointer, through other references) names; other values as is. */
export function resolved(document: OpenApiDocument, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string') return value;
  return followRefs(document, value)?.value;
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

/** Whether a documented media type (`application/json`, `image/*`, `*\/*`) takes a sent one. */
export function mediaTypeTakes(documented: string, sent: string): boolean {
  const [type = '', subtype = ''] = essenceOf(documented).split('/');
  const [sentType = '', sentSubtype = ''] = essenceOf(sent).split('/');
  return (type === '*' || type === sentType) && (subtype === '*' || subtype === sentSubtype);
}

/** The documented media type of an operation's request body that takes a sent one, if any. */
export function requestMediaOf(
  op: Pick<Operation, 'requestBody'>,
  sent: string,
): string | undefined {
  const types = op.requestBody?.mediaTypes ?? [];
  // An exact type before a range that also takes it.
  return (
    types.find((type) => essenceOf(type) === essenceOf(sent)) ??
    types.find((type) => mediaTypeTakes(type, sent))
  );
}

/** The schema and encoding of an operation's request body in a media type (undefined where it has none). */
export function mediaSchemaOf(
  document: OpenApiDocument,
  op: Pick<Operation, 'pathKey' | 'method' | 'requestBody'>,
  sent: string,
): { readonly schema: unknown; readonly encoding: Readonly<Record<string, unknown>> } {
  const type = requestMediaOf(op, sent);
  const body = resolved(document, operationObject(document, op.pathKey, op.method)?.requestBody);
  const content = isRecord(body) && isRecord(body.content) ? body.content : {};
  const media = type === undefined ? undefined : content[type];
  return {
    schema: isRecord(media) ? media.schema : undefined,
    encoding: isRecord(media) && isRecord(media.encoding) ? media.encoding : {},
  };
}

/**
 * The examples of a media type, parameter or header, as OpenAPI writes them: `example`, or the
 * `examples` that have a value (an `externalValue` is not fetched), with their names.
 */
export function examplesOf(carrier: Record<string, unknown>): { name?: string; value: unknown }[] {
  if ('example' in carrier) return [{ value: carrier.example }];
  if (!isRecord(carrier.examples)) return [];
  return Object.entries(carrier.examples).flatMap(([name, example]) =>
    isRecord(example) && 'value' in example ? [{ name, value: example.value }] : [],
  );
}
