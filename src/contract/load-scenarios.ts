import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Contract } from './load-contract.js';
import type { Operation } from './operation-index.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { parseYaml } from '../util/parse-yaml.js';
import { FileError, parseLocated, type PathStep, type Position } from '../util/located-file.js';
import { MAX_DELAY_MS, type Delay, type Fault, type Rule, type Scenario } from './scenario.js';

const RULE_KEYS = new Set(['operations', 'delay', 'fault', 'status', 'code', 'message', 'body']);
const SCENARIO_KEYS = new Set(['name', 'description', 'rules']);
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A scenario file that cannot be used; the message names the file, line and column, and the rule. */
export class ScenarioError extends FileError {
  override name = 'ScenarioError';
}

/** A rule that cannot be used; its file and place are added where the rule is read. */
class RuleError extends Error {}

function delayOf(value: unknown, where: string): Delay {
  const isMs = (n: unknown): n is number =>
    typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_DELAY_MS;
  if (isMs(value)) return { fixed: value };
  if (isRecord(value) && isMs(value.min) && isMs(value.max) && value.min <= value.max) {
    return { min: value.min, max: value.max };
  }
  throw new RuleError(
    `${where}: delay must be milliseconds (0 to ${MAX_DELAY_MS}) or {min, max} with min <= max`,
  );
}

function faultOf(value: unknown, where: string): Fault {
  if (value === 'reset' || value === 'close') return value;
  throw new RuleError(`${where}: fault must be "reset" or "close"`);
}

function operationsOf(value: unknown, where: string, contract: Contract): Rule['operations'] {
  if (value === 'all') return 'all';
  const ids = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
    throw new RuleError(`${where}: operations must be "all", an operationId or a list of them`);
  }
  for (const id of ids) {
    if (!contract.operations.byId(id)) {
      const known = contract.operations.operations.map((op) => op.operationId).join(', ');
      throw new RuleError(`${where}: unknown operation "${id}" (the contract has ${known})`);
    }
  }
  return ids;
}

function matchedOperations(
  operations: Rule['operations'],
  contract: Contract,
): readonly Operation[] {
  return operations === 'all'
    ? contract.operations.operations
    : operations.flatMap((id) => contract.operations.byId(id) ?? []);
}

/** A status is usable only if every matched operation documents it. */
function checkStatus(
  status: unknown,
  operations: Rule['operations'],
  where: string,
  contract: Contract,
): number {
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new RuleError(`${where}: status must be an HTTP status code`);
  }
  for (const op of matchedOperations(operations, contract)) {
    if (!op.statuses.includes(status)) {
      throw new RuleError(
        `${where}: status ${status} is not documented for ${op.operationId} (documented: ${op.statuses.join(', ')})`,
      );
    }
  }
  return status;
}

/**
 * A forced success body must already satisfy every matched operation's answer for its status: it
 * is checked at load against the answer's schema, not first on a request (where the validator
 * would turn it into a 500).
 */
function checkBody(
  body: unknown,
  status: number,
  operations: Rule['operations'],
  where: string,
  contract: Contract,
): void {
  for (const op of matchedOperations(operations, contract)) {
    const check = contract.checkAnswer(op, status);
    const problems = check ? check(body) : [`/response: status ${status} documents no JSON body`];
    if (problems.length > 0) {
      throw new RuleError(
        `${where}: body does not match the ${status} answer of ${op.operationId}: ${problems.join('; ')}`,
      );
    }
  }
}

function ruleOf(value: unknown, where: string, contract: Contract): Rule {
  if (!isRecord(value)) throw new RuleError(`${where}: a rule must be a mapping`);
  const unknown = Object.keys(value).filter((key) => !RULE_KEYS.has(key));
  if (unknown.length > 0) throw new RuleError(`${where}: unknown key "${unknown.join('", "')}"`);
  const operations = operationsOf(value.operations, where, contract);
  const rule: { -readonly [K in keyof Rule]: Rule[K] } = { operations };
  if (value.delay !== undefined) rule.delay = delayOf(value.delay, where);
  if (value.fault !== undefined) rule.fault = faultOf(value.fault, where);
  if (value.status !== undefined)
    rule.status = checkStatus(value.status, operations, where, contract);
  if (value.fault !== undefined && value.status !== undefined) {
    throw new RuleError(`${where}: a rule has either a fault or a status, not both`);
  }
  for (const key of ['code', 'message'] as const) {
    const text = value[key];
    if (text === undefined) continue;
    if (typeof text !== 'string' || text === '') {
      throw new RuleError(`${where}: ${key} must be a non-empty string`);
    }
    if (rule.status === undefined || rule.status < 400) {
      throw new RuleError(`${where}: ${key} needs an error status (4xx)`);
    }
    rule[key] = text;
  }
  if (value.body !== undefined) {
    if (rule.status === undefined || rule.status >= 300) {
      throw new RuleError(`${where}: body needs a success status (2xx)`);
    }
    rule.body = value.body;
    checkBody(value.body, rule.status, operations, where, contract);
  }
  if (rule.delay === undefined && rule.fault === undefined && rule.status === undefined) {
    throw new RuleError(`${where}: a rule needs a status, a delay or a fault`);
  }
  return rule;
}

/** Parses and checks one scenario file against the contract. */
export function parseScenario(text: string, source: string, contract: Contract): Scenario {
  // Where a problem is written: the file is parsed again with positions, only once one is found.
  const refuse = (reason: string, path: readonly PathStep[]): ScenarioError => {
    let position: Position | undefined;
    try {
      position = parseLocated(source, text).positionOf(path);
    } catch (error) {
      if (error instanceof FileError) position = error.position;
    }
    return new ScenarioError(source, reason, position);
  };
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw refuse(`not YAML: ${errorMessage(error).split('\n')[0] ?? ''}`, []);
  }
  if (!isRecord(parsed)) throw refuse('expected a mapping with "rules"', []);
  const unknown = Object.keys(parsed).filter((key) => !SCENARIO_KEYS.has(key));
  if (unknown.length > 0) throw refuse(`unknown key "${unknown.join('", "')}"`, [unknown[0] ?? '']);
  const name = parsed.name ?? basename(source).replace(/\.ya?ml$/, '');
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw refuse('name must be lowercase letters, digits and dashes', ['name']);
  }
  const description = typeof parsed.description === 'string' ? parsed.description : '';
  if (!Array.isArray(parsed.rules) || parsed.rules.length === 0) {
    throw refuse('rules must be a non-empty list', ['rules']);
  }
  const rules = parsed.rules.map((rule: unknown, index) => {
    try {
      return ruleOf(rule, `rule ${index + 1}`, contract);
    } catch (error) {
      if (error instanceof RuleError) throw refuse(error.message, ['rules', index]);
      throw error;
    }
  });
  return { name, description, rules, source };
}

/** Loads every `*.yaml` file of a folder; throws on the first bad file or duplicate name. */
export function loadScenarios(dir: string, contract: Contract): ReadonlyMap<string, Scenario> {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => /\.ya?ml$/.test(file))
      .sort();
  } catch (error) {
    throw new ScenarioError(dir, `cannot read the scenarios folder: ${errorMessage(error)}`);
  }
  const scenarios = new Map<string, Scenario>();
  for (const file of files) {
    const source = join(dir, file);
    const scenario = parseScenario(readFileSync(source, 'utf8'), source, contract);
    const earlier = scenarios.get(scenario.name);
    if (earlier) {
      throw new ScenarioError(
        source,
        `the name "${scenario.name}" is also used by ${earlier.source}`,
      );
    }
    scenarios.set(scenario.name, scenario);
  }
  return scenarios;
}
