import { isRecord } from '../../util/is-record.js';
import type { Random } from '../../util/random.js';
import { RuleError, type RuleKind } from './rule-kind.js';

/** The longest delay a scenario may set. */
export const MAX_DELAY_MS = 60_000;

/** Latency added before a rule's answer (or before the normal answer): fixed, or a range. */
export type Delay = { fixed: number } | { min: number; max: number };

/** What the delay kind adds to a rule. */
export interface DelayFields {
  readonly delay?: Delay;
}

const PROBLEM = `delay must be milliseconds (0 to ${MAX_DELAY_MS}) or {min, max} with min <= max`;
const MS = { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS };

/** The milliseconds a rule's delay holds: its fixed value, or drawn from min to max, both included. */
export function delayMs(delay: Delay, random: Random): number {
  return 'fixed' in delay
    ? delay.fixed
    : delay.min + Math.floor(random() * (delay.max - delay.min + 1));
}

function isMs(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_DELAY_MS;
}

/** `delay`: latency before the answer, fixed or drawn from a range with the session's seed. */
export const delayKind: RuleKind<DelayFields> = {
  name: 'delay',
  answers: false,
  keys: {
    delay: {
      problem: PROBLEM,
      schema: {
        description: 'Milliseconds before the answer: a number, or a range drawn from the seed.',
        oneOf: [
          MS,
          {
            type: 'object',
            properties: { min: MS, max: MS },
            required: ['min', 'max'],
          },
        ],
      },
    },
  },
  parse({ delay }) {
    if (delay === undefined) return {};
    if (isMs(delay)) return { delay: { fixed: delay } };
    // The schema has no way to compare min and max.
    if (isRecord(delay) && isMs(delay.min) && isMs(delay.max) && delay.min <= delay.max) {
      return { delay: { min: delay.min, max: delay.max } };
    }
    throw new RuleError(PROBLEM);
  },
  apply({ delay }, exchange) {
    return delay === undefined ? true : exchange.wait(delayMs(delay, exchange.draw));
  },
};
