import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Operation } from '../contract/operation-index.js';
import type { Session } from '../sessions/session.js';

/** One pet API request as the pipeline learns about it, for the layers and the journal. */
export interface PetCall {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The operation asked for, once known. */
  readonly op: Operation | undefined;
  /** The session it talks to, once authenticated. */
  session?: Session;
  /** What forced the answer, if anything: `scenario <name>` or `Prefer: code=NNN`. */
  forcedBy?: string;
  /** The problems the request was refused for. */
  validationErrors?: readonly string[];
}

/** An answer with a JSON body, before it is checked against the contract and sent. */
export interface Reply {
  readonly status: number;
  /** The exact body (int64 values beyond 2^53 as bigints). */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}
