import { isRecord } from '../util/is-record.js';
import { oneLine } from '../util/quote-text.js';
import type { AnswerCheck } from './answer-check.js';
import type { Generate } from './answer-generator.js';
import { examplesOf } from './document-parts.js';
import type { Operation } from './operation-index.js';

/** Headers an answer's transport writes itself, whatever the contract says of them. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header value as HTTP carries it: lists joined with commas, on one line. */
function headerText(value: unknown): string {
  const text = Array.isArray(value)
    ? value.map((item) => headerText(item)).join(',')
    : isRecord(value)
      ? Object.entries(value)
          .map(([key, item]) => `${key},${headerText(item)}`)
          .join(',')
      : String(value);
  return oneLine(text);
}

/**
 * The headers a documented answer has, each with a value: its example where it keeps to the
 * header's schema, else generated; a redirect's Location where the contract gives none (the
 * API's own root). Transport headers (Content-Type, Content-Length…) are the transport's.
 */
export async function answerHeaders(
  op: Operation,
  status: number,
  response: Record<string, unknown>,
  { check, generate }: { check: AnswerCheck; generate: Generate },
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  const documented = isRecord(response.headers) ? response.headers : {};
  for (const [name, header] of Object.entries(documented)) {
    if (!isRecord(header) || !HEADER_NAME.test(name)) continue;
    if (TRANSPORT_HEADERS.has(name.toLowerCase())) continue;
    const carried = isRecord(header.content)
      ? Object.values(header.content).find(isRecord)
      : undefined;
    const schema = header.schema ?? carried?.schema;
    const [example] = examplesOf(header).filter(
      (candidate) => schema === undefined || check(schema, candidate.value).length === 0,
    );
    const value =
      example !== undefined
        ? example.value
        : schema === undefined
          ? ''
          : await generate(op, status, schema);
    headers[name] = headerText(value);
  }
  const location = Object.keys(headers).find((name) => name.toLowerCase() === 'location');
  if (status >= 300 && status < 400 && location === undefined) {
    headers.Location = `${op.pathTemplate.slice(0, op.pathTemplate.length - op.pathKey.length)}/`;
  }
  return headers;
}
