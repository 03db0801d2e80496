import { truncate } from '../util/quote-text.js';
import type { ErrorCode } from '../util/refusal.js';

export type { ErrorCode };

/** The header that carries the mock's own message where the contract's error body replaces it. */
export const ERROR_MESSAGE_HEADER = 'X-Mock-Error';

/** The body of every error response, as the contract's Error schema defines it. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** An error that knows its HTTP answer; the one error handler turns it into an Error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** The individual problems behind the message, e.g. one per invalid field. */
    readonly details: readonly string[] = [message],
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The Error body for this error: `status` always equals the HTTP status. */
  toBody(): ErrorBody {
    // A backstop: whatever a message quotes, it stays short.
    return { code: this.code, message: truncate(this.message, MAX_MESSAGE), status: this.status };
  }
}

const MAX_MESSAGE = 600;
