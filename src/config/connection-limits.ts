/** What the HTTP server bounds for each connection and over all of them; part of the config. */
export interface ConnectionLimits {
  /** Open connections at once; more are closed as they arrive (server.maxConnections). */
  readonly maxConnections: number;
  /** Answer bytes a connection may leave untaken before its next pipelined requests wait. */
  readonly maxQueuedBytes: number;
  /** Answer bytes all connections may leave untaken; over it, the longest holders are closed. */
  readonly maxQueuedTotal: number;
  /** Requests a connection may send ahead of its answers; one more closes it. */
  readonly maxPipelined: number;
  /** The request line and headers must arrive within this (then 408). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (then 408). */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** An answer written to a connection must be taken by the client within this; else it is closed. */
  readonly writeTimeoutMs: number;
}

/** The documented defaults (README, Limits). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  maxConnections: 1000,
  maxQueuedBytes: 1024 * 1024,
  maxQueuedTotal: 64 * 1024 * 1024,
  maxPipelined: 100,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  writeTimeoutMs: 30_000,
});
