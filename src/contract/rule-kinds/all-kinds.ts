import { delayKind } from './delay.js';
import { faultKind } from './fault.js';
import type { RuleKind } from './rule-kind.js';
import { statusKind } from './status.js';

/**
 * Every kind of thing a scenario rule can do, in the order the loader names them; a rule applies
 * those that act before the answer first. A new kind is a file of this folder and a line here.
 */
export const RULE_KINDS = [statusKind, delayKind, faultKind] as const;

type FieldsOf<Kind> = Kind extends RuleKind<infer Fields> ? Fields : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** What the kinds add to a parsed rule: each kind's own fields. */
export type KindFields = Intersection<FieldsOf<(typeof RULE_KINDS)[number]>>;
