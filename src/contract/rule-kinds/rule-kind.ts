import type { Contract } from '../load-contract.js';
import type { Operation } from '../operation-index.js';
import type { Random } from '../../util/random.js';

/** A JSON Schema (draft 2020-12) of one value, as the published scenario file schema holds it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One key a rule kind reads: the schema of its value, and what a wrong value is told. */
export interface RuleKey {
  readonly schema: JsonSchema;
  /** The message of a value the schema refuses: `delay must be milliseconds…`. */
  readonly problem: string;
}

/** A rule that cannot be used; the loader adds its file, place and `rule N`. */
export class RuleError extends Error {}

/** What a kind's parse may read besides the rule's own keys. */
export interface RuleSite {
  readonly contract: Contract;
  /** The operations the rule matches (its `all` already cut to those the kinds fit). */
  readonly operations: readonly Operation[];
}

/** The operations a kind can apply to, for a rule naming `all` or a built-in rule. */
export interface Fit {
  readonly fits: (op: Operation) => boolean;
  /** Why a rule naming `all` is refused when no operation fits. */
  readonly noneFits: string;
}

/**
 * What a kind may do to a request its rule applies to. The scenario step provides it; forced
 * answers go out through the same res.json that response validation checks.
 */
export interface RuleExchange {
  readonly operation: Operation;
  /** The session's seeded draw, so that a run repeats. */
  readonly draw: Random;
  /** Waits, unless the client goes away first; resolves false if it did. */
  wait(ms: number): Promise<boolean>;
  /** Ends the connection below HTTP: a TCP RST, or a close with no answer. */
  drop(how: 'reset' | 'close'): void;
  /** Hands the request on to the handler; a success status it should answer with, if any. */
  passOn(status?: number): void;
  /** Answers a JSON body. */
  send(status: number, body: unknown): void;
  /** Answers an error the mock's way (or the contract's error shape); code and message default from the status. */
  refuse(
    status: number,
    text: { readonly code?: string; readonly message?: string },
  ): Promise<void>;
}

/**
 * One kind of thing a scenario rule does (a status, a delay, a fault): its keys, how they are read
 * from a scenario file and checked against the contract, and what it does to a request. `Fields`
 * is what it adds to a parsed Rule, every key optional.
 */
export interface RuleKind<Fields extends object> {
  /** The key whose presence puts the kind in a rule; named in the loader's messages. */
  readonly name: keyof Fields & string;
  /** Whether it answers the request (at most one such kind a rule); the others act before the answer. */
  readonly answers: boolean;
  /** Every key it reads, for the scenario file schema. */
  readonly keys: { readonly [K in keyof Fields & string]-?: RuleKey };
  /** Which operations it can apply to, given the rule as written; undefined where it does not narrow them. */
  fit?(raw: Readonly<Record<string, unknown>>, contract: Contract): Fit | undefined;
  /** Its fields from a rule as written (already checked by the schema); throws RuleError. */
  parse(raw: Readonly<Record<string, unknown>>, site: RuleSite): Fields;
  /** Acts on a request; resolves whether the request goes on (false once it is answered or gone). */
  apply(rule: Fields, exchange: RuleExchange): boolean | Promise<boolean>;
}
