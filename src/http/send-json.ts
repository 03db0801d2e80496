import type { ServerResponse } from 'node:http';

/** The Content-Type of every answer, errors included. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Writes a JSON text as the whole answer (node drops the body itself for HEAD requests). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
