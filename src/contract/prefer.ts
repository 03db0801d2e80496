import { Refusal } from '../util/refusal.js';
import { documentedStatuses, type Operation } from './operation-index.js';
import { quoteText } from '../util/quote-text.js';

/** A `Prefer: code=` value that is not three digits. */
export class InvalidPreferenceError extends Refusal {
  override name = 'InvalidPreferenceError';

  constructor(message: string) {
    super(422, 'invalid_preference', message);
  }
}

/** A forced status the contract does not document for the operation. */
export class NotInContractError extends Refusal {
  override name = 'NotInContractError';

  constructor(op: Operation, status: number) {
    super(
      422,
      'not_in_contract',
      `The mock's control plane refused to force ${status}: the contract documents ${documentedStatuses(op)} for ${op.name}.`,
    );
  }
}

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
      throw new InvalidPreferenceError(
        `The mock's control plane refused Prefer: code must be three digits, got ${quoteText(value)}.`,
      );
    }
    return Number(value);
  }
  return undefined;
}
