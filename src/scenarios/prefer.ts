import { HttpError, quoteInput } from '../http/http-error.js';

/**
 * Reads `code=NNN` from a Prefer header with Prism's grammar: comma-separated preferences,
 * `;`-parameters and unknown preferences ignored, values optionally quoted. Returns the code, if any.
 */
export function preferredCode(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  for (const preference of header.split(',')) {
    const [token = ''] = preference.split(';', 1);
    const eq = token.indexOf('=');
    if (eq < 0 || token.slice(0, eq).trim().toLowerCase() !== 'code') continue;
    const value = token
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!/^\d{3}$/.test(value)) {
      throw new HttpError(
        422,
        'invalid_preference',
        `The mock's control plane refused Prefer: code must be three digits, got ${quoteInput(value)}.`,
      );
    }
    return Number(value);
  }
  return undefined;
}
