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
  // A create whose key the client chose is taken already (a resource of the contract, issue 30).
  | 'conflict'
  // Refusals of the mock's control plane (scenarios, sessions), not answers of the imitated service.
  | 'not_in_contract'
  | 'unknown_scenario'
  | 'invalid_preference'
  | 'invalid_session'
  // A create over the store's budgets (--max-pets, --max-store-bytes): nothing was stored.
  | 'store_full'
  // Proxy mode (--proxy-target): the real service broke the contract, or could not be reached.
  | 'contract_violation'
  | 'upstream_unreachable'
  // The state store (Redis, --state-url) cannot be reached: try again soon.
  | 'state_unavailable'
  // POST /__admin/reload: the files could not be applied; the last good version serves.
  | 'reload_failed';

/**
 * An error of the mock's own rules (a scenario, a session, a budget) that knows how it is
 * answered: its status and code. Each module throws its own subclass; the HTTP layer answers any
 * of them without knowing which.
 */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
