import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type { PathStep } from '../util/located-file.js';
import { RULE_KINDS } from './rule-kinds/all-kinds.js';
import type { JsonSchema, RuleKey } from './rule-kinds/rule-kind.js';

/** A scenario's name (given, or its file's). */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The keys of a scenario file. */
const FILE_KEYS: Readonly<Record<string, RuleKey>> = {
  name: {
    problem: 'name must be lowercase letters, digits and dashes',
    schema: {
      description: "The scenario's name; the file's name without .yaml where absent.",
      type: 'string',
      pattern: SCENARIO_NAME.source,
    },
  },
  description: {
    problem: 'description must be a line of text',
    schema: { description: 'What the scenario does, as the admin API and the console show it.' },
  },
  rules: {
    problem: 'rules must be a non-empty list',
    schema: {
      description: 'Tried in order: the first rule matching an operation applies to it.',
      type: 'array',
      minItems: 1,
      items: { $ref: '#/$defs/rule' },
    },
  },
};

/** The keys every rule has whatever it does: which requests it matches. */
const MATCH_KEYS: Readonly<Record<string, RuleKey>> = {
  operations: {
    problem:
      'operations must be "all", an operation (operationId, or "GET /path") or a list of them',
    schema: {
      description:
        'An operationId or "GET /path" template, a list of them, or "all" (with a status: every operation documenting it).',
      anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { type: 'string' } }],
    },
  },
  chance: {
    problem: 'chance must be a number above 0 and at most 1',
    schema: {
      description: 'The share of matching requests the rule applies to, drawn from the seed.',
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
    },
  },
};

/** Every key a rule may have: its match keys, then each kind's, in the table's order. */
const RULE_KEYS: Readonly<Record<string, RuleKey>> = Object.fromEntries([
  ...Object.entries(MATCH_KEYS),
  ...RULE_KINDS.flatMap((kind) => Object.entries<RuleKey>(kind.keys)),
]);

function schemasOf(keys: Readonly<Record<string, RuleKey>>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(keys).map(([key, { schema }]) => [key, schema]));
}

/** The JSON Schema of a scenario file, from the rule kinds (published as scenario.schema.json). */
export function scenarioFileSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'petstore-mock scenario file',
    description:
      'A scenario of petstore-mock: rules forcing answers, delays and faults (docs/scenarios.md). Checked against the contract when loaded.',
    type: 'object',
    properties: schemasOf(FILE_KEYS),
    required: ['rules'],
    additionalProperties: false,
    $defs: {
      rule: {
        description: 'Which operations it matches and what it does to them.',
        type: 'object',
        properties: schemasOf(RULE_KEYS),
        required: ['operations'],
        additionalProperties: false,
      },
    },
  };
}

/** What the schema refuses in a file: the reason, where it is written, and its rule's index. */
export interface SchemaProblem {
  readonly reason: string;
  readonly path: readonly PathStep[];
  readonly rule?: number;
}

/** A problem and how early the loader would have met it (its rule, then its key's place). */
interface Ranked extends SchemaProblem {
  readonly rank: readonly [number, number];
}

function unknownKeys(errors: readonly ErrorObject[], at: string): string {
  const keys = errors
    .filter((e) => e.keyword === 'additionalProperties' && e.instancePath === at)
    .map((e) => String(e.params.additionalProperty));
  return `unknown key "${keys.join('", "')}"`;
}

/** The loader's words for one Ajv error, ranked as the loader checks: a mapping, its keys, each key. */
function rankedProblem(error: ErrorObject, all: readonly ErrorObject[]): Ranked {
  const steps = error.instancePath.split('/').slice(1);
  const ruleAt = steps[0] === 'rules' && steps.length > 1 ? Number(steps[1]) : undefined;
  const keys = ruleAt === undefined ? FILE_KEYS : RULE_KEYS;
  const [key = ''] = ruleAt === undefined ? steps : steps.slice(2);
  const base = ruleAt === undefined ? [] : ['rules', ruleAt];
  const order = ruleAt ?? -1;
  const keyRank = (name: string): number => Object.keys(keys).indexOf(name) + 2;
  if (key === '' && error.keyword === 'type') {
    const reason =
      ruleAt === undefined ? 'expected a mapping with "rules"' : 'a rule must be a mapping';
    return { reason, path: base, rule: ruleAt, rank: [order, 0] };
  }
  if (key === '' && error.keyword === 'additionalProperties') {
    const path = [...base, String(error.params.additionalProperty)];
    return { reason: unknownKeys(all, error.instancePath), path, rule: ruleAt, rank: [order, 1] };
  }
  const named = key === '' ? String(error.params.missingProperty) : key;
  const reason = keys[named]?.problem ?? `${named}: ${error.message ?? 'refused'}`;
  // Where the value is written (the rule's start for a missing key).
  const path = key === '' && ruleAt !== undefined ? base : [...base, named];
  return { reason, path, rule: ruleAt, rank: [order, keyRank(named)] };
}

/**
 * Checks parsed scenario files against the schema; the first problem, in the loader's words and
 * order, or undefined. Compiled once per load of the scenario folders; the schema itself is
 * not checked against its meta-schema here (that costs more than the compile; a test does it).
 */
export function createScenarioCheck(): (value: unknown) => SchemaProblem | undefined {
  const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
  const validate = ajv.compile(scenarioFileSchema());
  return (value) => {
    if (validate(value)) return undefined;
    const errors = validate.errors ?? [];
    const ranked = errors.map((error) => rankedProblem(error, errors));
    ranked.sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1]);
    const [first] = ranked;
    return first && { reason: first.reason, path: first.path, rule: first.rule };
  };
}
