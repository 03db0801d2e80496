import type { RequestHandler } from 'express';
import { notAcceptable } from './to-http-error.js';

/** How specific each media range that covers application/json is. */
const JSON_RANGES: ReadonlyMap<string, number> = new Map([
  ['application/json', 3],
  ['application/*', 2],
  ['*/*', 1],
]);

/** The `q` of a media range's parameters: 1 when absent or not a number (RFC 9110 §12.4.2). */
function qualityOf(parameters: readonly string[]): number {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=', 2);
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return value.trim() === '' || !Number.isFinite(q) ? 1 : q;
  }
  return 1;
}

/**
 * Whether an Accept header lets the answer be application/json: no header (or an empty one)
 * does; otherwise the most specific range that covers JSON decides, by a quality above zero
 * (`application/json;q=0, *\/*` excludes JSON).
 */
export function acceptsJson(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  let best: { specificity: number; quality: number } | undefined;
  for (const range of header.split(',')) {
    const [type = '', ...parameters] = range.split(';');
    const specificity = JSON_RANGES.get(type.trim().toLowerCase());
    if (specificity === undefined || (best && best.specificity >= specificity)) continue;
    best = { specificity, quality: qualityOf(parameters) };
  }
  return best !== undefined && best.quality > 0;
}

/** 406 for an Accept header that excludes JSON, before any handler or store runs. */
export const checkAccept: RequestHandler = function checkAccept(req, _res, next) {
  next(acceptsJson(req.headers.accept) ? undefined : notAcceptable());
};
