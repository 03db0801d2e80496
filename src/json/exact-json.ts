import { HttpError } from '../http/http-error.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../http/limits.js';
import { errorMessage } from '../error-message.js';
import { parseJson } from './json-codec.js';

/**
 * Parses a JSON request body without losing int64 digits (integers beyond 2^53 become bigints);
 * undefined for a blank body. Throws the 400 to answer for nesting too deep or text not JSON.
 */
export function parseRequestBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new HttpError(
      400,
      'bad_request',
      `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  try {
    return parseJson(text, true);
  } catch (error) {
    const reason = errorMessage(error).slice(0, 120);
    throw new HttpError(400, 'bad_request', `The request body is not valid JSON: ${reason}`);
  }
}
