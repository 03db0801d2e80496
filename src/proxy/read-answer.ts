import type { Operation } from '../contract/operation-index.js';
import { int64Breaches } from '../util/int64.js';
import { parseJson } from '../util/json-codec.js';
import { errorMessage } from '../util/error-message.js';
import { quoteText } from '../util/quote-text.js';
import type { UpstreamAnswer } from './upstream-client.js';

/** The real service's answer as proxy mode reads it, before the validator checks its body. */
export interface ReadAnswer {
  /**
   * Its body when it is a JSON object or array: the exact value (int64 digits kept, as bigints
   * beyond 2^53) and the text it was parsed from, which is what the client gets.
   */
  readonly json: { readonly exact: unknown; readonly text: string } | undefined;
  /** Each way it breaks the contract that the validator cannot see, `/response ...` first. */
  readonly violations: readonly string[];
}

// Not fatal to a BOM: a text that starts with one is not JSON (RFC 8259 §8.1) and is told so.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

function refused(violation: string): ReadAnswer {
  return { json: undefined, violations: [violation] };
}

/**
 * Reads what the validator cannot judge: a status the operation does not document (which has no
 * schema to check, and which the validator skips from 500 on), a body that is not JSON, and int64
 * values beyond the range the validator sees rounded. Every body the contract documents is a JSON
 * object or array, sent as application/json.
 */
export function readUpstreamAnswer(answer: UpstreamAnswer, op: Operation): ReadAnswer {
  const { status, headers, body } = answer;
  if (!op.statuses.includes(status)) {
    return refused(
      `/response status ${status} is not documented for ${op.name} (${op.statuses.join(', ')})`,
    );
  }
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return refused(
      `/response is encoded as ${quoteText(encoding)}, though the mock asked for none`,
    );
  }
  const type = mediaTypeOf(headers['content-type']);
  if (type !== 'application/json') {
    return refused(
      `/response is ${type === '' ? 'sent without a Content-Type' : quoteText(type)}, not application/json`,
    );
  }
  let text: string;
  let exact: unknown;
  try {
    text = UTF8.decode(body);
    exact = parseJson(text);
  } catch (error) {
    return refused(`/response is not JSON: ${errorMessage(error).slice(0, 120)}`);
  }
  if (typeof exact !== 'object' || exact === null) {
    return refused(`/response must be a JSON object or array, not ${quoteText(text)}`);
  }
  const breaches = int64Breaches(exact, '/response').map((b) => `${b.path} ${b.message}`);
  return { json: { exact, text }, violations: breaches };
}
