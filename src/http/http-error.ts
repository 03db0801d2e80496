import { truncate } from '../util/quote-text.js';

/** The stable, documented values of the Error body's `code` field. */
export type ErrorCode =
  | 'unauthorized'
  | 'bad_request'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'internal_error'
  // Refusals of the mock's control plane (scenarios, sessions), not answers of the imitated service.
  | 'not_in_contract'
  | 'unknown_scenario'
  | 'invalid_preference'
  | 'invalid_session'
  // A create over the store's budgets (--max-pets, --max-store-bytes): nothing was stored.
  | 'store_full'
  // Proxy mode (--proxy-target): the real service broke the contract, or could not be reached.
  | 'contract_violation'
  | 'upstream_unreachable';

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
