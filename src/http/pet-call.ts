import type { Request } from 'express';
import type { Match, OperationIndex } from '../contract/operation-index.js';
import { splitTarget } from './request-parts.js';
import type { SessionId } from '../state/mock-state.js';
import type { AnswerSource } from '../contract/contract-answers.js';

/** One pet API request as its steps learn about it, for the later steps and the journal. */
export interface PetCall {
  /** The method as sent (a HEAD stays HEAD, though it is answered as GET). */
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The query as sent, without its `?` (empty for none): the journal keeps it to repeat a call. */
  readonly query: string;
  /** When it arrived, in milliseconds since the epoch. */
  readonly time: number;
  /** What its method and path name in the contract (path parameters as sent). */
  readonly match: Match;
  /** Its path parameters, decoded, once its operation is found. */
  params?: Readonly<Record<string, string>>;
  /** The session it talks to (its X-Mock-Session; undefined for the default one). */
  session?: SessionId;
  /** Set once it passed auth: its session is then opened for it. */
  authenticated?: boolean;
  /** The exact JSON body (int64 digits kept); req.body holds the validator's view of it. */
  body?: unknown;
  /** What forced the answer, if anything: `scenario <name>` or `Prefer: code=NNN`. */
  forcedBy?: string;
  /** A forced success status left to the handler to answer (a body of the contract's for it). */
  forcedStatus?: number;
  /** Where an answer taken from the contract came from (X-Mock-Answer). */
  answerSource?: AnswerSource;
  /** The problems the request was refused for. */
  validationErrors?: readonly string[];
  /** Proxy mode: what the real service answered (coverage reads it with the status sent). */
  upstream?: UpstreamOutcome;
}

/** The real service's answer to a forwarded call, as proxy mode judged it. */
export interface UpstreamOutcome {
  /** The status it answered with; the one sent differs where strict mode refused the answer (502). */
  readonly status: number;
  /** Each way the answer broke the contract (journaled as validationErrors); empty if none. */
  readonly violations: readonly string[];
}

/** An answer with a JSON body, before it is checked against the contract and sent. */
export interface Reply {
  readonly status: number;
  /** The exact body (int64 values beyond 2^53 as bigints). */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The calls of an app's pet API, begun from their requests and kept beside them. */
export class PetCalls {
  readonly #calls = new WeakMap<object, PetCall>();
  readonly #operations: OperationIndex;

  constructor(operations: OperationIndex) {
    this.#operations = operations;
  }

  /** The call of a pet API request, begun on first use from its method and path. */
  of(req: Request): PetCall {
    let call = this.#calls.get(req);
    if (!call) {
      const { path, search } = splitTarget(req.originalUrl);
      call = {
        method: req.method,
        path,
        query: search,
        time: Date.now(),
        // The router's own path (`/pets/1` under `/v1`), wherever the app is mounted.
        match: this.#operations.match(req.method, req.path),
      };
      this.#calls.set(req, call);
    }
    return call;
  }

  /** The call of a request if it reached the pet API (a body parser's request too). */
  find(req: object): PetCall | undefined {
    return this.#calls.get(req);
  }
}
