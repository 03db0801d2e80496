const JSON_RANGES = new Set(['application/json', 'application/*', '*/*']);

/**
 * Whether an Accept header lets the answer be application/json: no header (or an empty one)
 * does; otherwise a range that covers it with a quality above zero.
 */
export function acceptsJson(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  for (const range of header.split(',')) {
    const [type = '', ...parameters] = range.split(';');
    if (!JSON_RANGES.has(type.trim().toLowerCase())) continue;
    const quality = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    if (quality === undefined || Number(quality.slice(2)) > 0) return true;
  }
  return false;
}
