import { RuleError, type RuleKind } from './rule-kind.js';

/** Failures below HTTP: `reset` sends a TCP RST; `close` ends the connection with no answer. */
export type Fault = 'reset' | 'close';

/** What the fault kind adds to a rule. */
export interface FaultFields {
  readonly fault?: Fault;
}

const PROBLEM = 'fault must be "reset" or "close"';

/** `fault`: the connection is broken instead of answered. */
export const faultKind: RuleKind<FaultFields> = {
  name: 'fault',
  answers: true,
  keys: {
    fault: {
      problem: PROBLEM,
      schema: {
        description: 'Below HTTP, instead of an answer: a TCP reset, or a close with no answer.',
        enum: ['reset', 'close'],
      },
    },
  },
  parse({ fault }) {
    if (fault === undefined) return {};
    if (fault === 'reset' || fault === 'close') return { fault };
    throw new RuleError(PROBLEM);
  },
  apply({ fault }, exchange) {
    if (fault === undefined) return true;
    exchange.drop(fault);
    return false;
  },
};
