import { isRecord } from '../util/is-record.js';
import { operationObject, resolved } from './document-parts.js';
import { essenceOf, kindOf } from './media-types.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { Operation } from './operation-index.js';

// What resource inference reads of an operation's bodies: the success answer it documents and
// the JSON schema of its request body.

/** An operation's success answer, as its contract documents it. */
export interface Success {
  /** The lowest 2XX documented; where only `2XX` or `default` is, or nothing, the fallback. */
  readonly status: number;
  /** Whether any success is documented: exactly, by `2XX`, or by `default`. */
  readonly documented: boolean;
  /** The media types of its content; empty without content. */
  readonly mediaTypes: readonly string[];
  /** The schema of its JSON content, if it has some. */
  readonly schema: unknown;
  /** Whether its JSON content exists (a schema of `{}` or none at all is still JSON). */
  readonly json: boolean;
  /** The headers it documents, as written. */
  readonly headers: readonly string[];
}

/** The content of a media type map in JSON: `application/json` first, else the first JSON kind. */
function jsonMediaOf(content: Record<string, unknown>): Record<string, unknown> | undefined {
  const types = Object.keys(content);
  const chosen =
    types.find((type) => essenceOf(type) === 'application/json') ??
    types.find((type) => kindOf(type) === 'json');
  const media = chosen === undefined ? undefined : content[chosen];
  return isRecord(media) ? media : chosen === undefined ? undefined : {};
}

/**
 * The success answer of an operation. `fallback` is the status where the contract documents a
 * success only by `2XX` or `default` (then `hasContent` says whether that answer has a body),
 * or none at all.
 */
export function successOf(
  document: OpenApiDocument,
  op: Operation,
  fallback: (hasContent: boolean) => number,
): Success {
  const operation = operationObject(document, op.pathKey, op.method);
  const responses = isRecord(operation?.responses) ? operation.responses : {};
  const exact = op.statuses.filter((s) => s >= 200 && s < 300);
  const key =
    exact.length > 0
      ? String(Math.min(...exact))
      : Object.keys(responses).find((k) => k.toUpperCase() === '2XX' || k === 'default');
  const response = key === undefined ? undefined : resolved(document, responses[key]);
  const content = isRecord(response) && isRecord(response.content) ? response.content : {};
  const mediaTypes = Object.keys(content);
  const media = jsonMediaOf(content);
  const headers = isRecord(response) && isRecord(response.headers) ? response.headers : {};
  return {
    status: exact.length > 0 ? Math.min(...exact) : fallback(mediaTypes.length > 0),
    documented: key !== undefined,
    mediaTypes,
    schema: media?.schema,
    json: media !== undefined,
    headers: Object.keys(headers),
  };
}

/** An operation's request body: its JSON schema (if it takes JSON) and its media types. */
export interface RequestBody {
  readonly schema: unknown;
  readonly json: boolean;
  readonly mediaTypes: readonly string[];
}

/** The request body of an operation, if it documents one. */
export function requestBodyOf(document: OpenApiDocument, op: Operation): RequestBody | undefined {
  const body = resolved(document, operationObject(document, op.pathKey, op.method)?.requestBody);
  if (!isRecord(body)) return undefined;
  const content = isRecord(body.content) ? body.content : {};
  const media = jsonMediaOf(content);
  return { schema: media?.schema, json: media !== undefined, mediaTypes: Object.keys(content) };
}
