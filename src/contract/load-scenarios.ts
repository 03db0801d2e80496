import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Contract } from './load-contract.js';
import { documentedStatuses, documentsStatus, type Operation } from './operation-index.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { parseYaml } from '../util/parse-yaml.js';
import { FileError, parseLocated, type PathStep, type Position } from '../util/located-file.js';
import { MAX_DELAY_MS, type Delay, type Fault, type Rule, type Scenario } from './scenario.js';

const RULE_KEYS = new Set([
  'operations',
  'delay',
  'fault',
  'chance',
  'status',
  'code',
  'message',
  'body',
]);
const SCENARIO_KEYS = new Set(['name', 'description', 'rules']);
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A scenario file that cannot be used; the message names the file, line and column, and the rule. */
export class ScenarioError extends FileError {
  override name = 'ScenarioError';
}

/** A rule that cannot be used; its file and place are added where the rule is read. */
class RuleError extends Error {}

/** How a scenario file is read against a contract. */
interface ReadOptions {
  /**
   * A scenario shipped with the mock (the Pet Store's): its rules apply where the contract has
   * what they name, and are left out elsewhere. A user's own file is refused instead.
   */
  readonly builtIn?: boolean;
}

/** Whether the mock may force this status on an operation: documented, or a secured one's 401. */
export function canForce(op: Operation, status: number): boolean {
  return documentsStatus(op, status) || (status === 401 && op.security.length > 0);
}

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

function chanceOf(value: unknown, where: string): number {
  if (typeof value === 'number' && value > 0 && value <= 1) return value;
  throw new RuleError(`${where}: chance must be a number above 0 and at most 1`);
}

function faultOf(value: unknown, where: string): Fault {
  if (value === 'reset' || value === 'close') return value;
  throw new RuleError(`${where}: fault must be "reset" or "close"`);
}

function operationsOf(
  value: unknown,
  where: string,
  contract: Contract,
  { builtIn = false }: ReadOptions,
): Rule['operations'] {
  if (value === 'all') return 'all';
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) {
    throw new RuleError(
      `${where}: operations must be "all", an operation (operationId, or "GET /path") or a list of them`,
    );
  }
  const found: string[] = [];
  for (const name of names) {
    const op = contract.operations.find(name);
    if (op) found.push(op.name);
    else if (!builtIn) {
      const known = contract.operations.operations.map((o) => o.name).join(', ');
      throw new RuleError(`${where}: unknown operation "${name}" (the contract has ${known})`);
    }
  }
  return found;
}

function matchedOperations(
  operations: Rule['operations'],
  contract: Contract,
): readonly Operation[] {
  return operations === 'all'
    ? contract.operations.operations
    : operations.flatMap((name) => contract.operations.byName(name) ?? []);
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
    if (!canForce(op, status)) {
      throw new RuleError(
        `${where}: status ${status} is not documented for ${op.name} (documented: ${documentedStatuses(op)})`,
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
        `${where}: body does not match the ${status} answer of ${op.name}: ${problems.join('; ')}`,
      );
    }
  }
}

/**
 * A built-in rule cut to the operations of the contract it can apply to: those that can be forced
 * its status and take its body. Undefined when none can.
 */
function fittedRule(
  value: Record<string, unknown>,
  where: string,
  contract: Contract,
): Rule | undefined {
  const named = operationsOf(value.operations, where, contract, { builtIn: true });
  const status = value.status;
  const fits = (op: Operation): boolean => {
    if (typeof status !== 'number') return true;
    if (!canForce(op, status)) return false;
    if (value.body === undefined) return true;
    const check = contract.checkAnswer(op, status);
    return check !== undefined && check(value.body).length === 0;
  };
  const matched = matchedOperations(named, contract);
  const fitting = matched.filter(fits);
  if (fitting.length === 0) return undefined;
  const operations =
    named === 'all' && fitting.length === matched.length ? 'all' : fitting.map((op) => op.name);
  return ruleOf({ ...value, operations }, where, contract);
}

function ruleOf(value: unknown, where: string, contract: Contract): Rule {
  if (!isRecord(value)) throw new RuleError(`${where}: a rule must be a mapping`);
  const unknown = Object.keys(value).filter((key) => !RULE_KEYS.has(key));
  if (unknown.length > 0) throw new RuleError(`${where}: unknown key "${unknown.join('", "')}"`);
  let operations = operationsOf(value.operations, where, contract, {});
  // `all` with a status: every operation that can be forced it (and, with a body, takes it).
  if (operations === 'all' && typeof value.status === 'number') {
    const status = value.status;
    const fitting = contract.operations.operations.filter((op) => {
      if (!canForce(op, status)) return false;
      if (value.body === undefined) return true;
      const check = contract.checkAnswer(op, status);
      return check !== undefined && check(value.body).length === 0;
    });
    if (fitting.length === 0) {
      throw new RuleError(`${where}: status ${status} is not documented for any operation`);
    }
    if (fitting.length < contract.operations.operations.length) {
      operations = fitting.map((op) => op.name);
    }
  }
  const rule: { -readonly [K in keyof Rule]: Rule[K] } = { operations };
  if (value.delay !== undefined) rule.delay = delayOf(value.delay, where);
  if (value.fault !== undefined) rule.fault = faultOf(value.fault, where);
  if (value.chance !== undefined) rule.chance = chanceOf(value.chance, where);
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

/**
 * Parses and checks one scenario file against the contract. A built-in one keeps the rules that
 * apply to the contract, and is undefined when none does.
 */
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  options: ReadOptions & { builtIn: true },
): Scenario | undefined;
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  options?: ReadOptions,
): Scenario;
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  { builtIn = false }: ReadOptions = {},
): Scenario | undefined {
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
  const rules = parsed.rules.flatMap((rule: unknown, index) => {
    const where = `rule ${index + 1}`;
    try {
      if (builtIn && isRecord(rule)) return fittedRule(rule, where, contract) ?? [];
      return [ruleOf(rule, where, contract)];
    } catch (error) {
      if (error instanceof RuleError) throw refuse(error.message, ['rules', index]);
      throw error;
    }
  });
  if (rules.length === 0) return undefined;
  return { name, description, rules, source };
}

/** A folder of scenario files, and how its files are read. */
export interface ScenarioFolder extends ReadOptions {
  readonly dir: string;
}

/** The `*.yaml` and `*.yml` files of a folder, sorted; a folder that cannot be read throws. */
function scenarioFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => /\.ya?ml$/.test(file))
      .sort();
  } catch (error) {
    throw new ScenarioError(dir, `cannot read the scenarios folder: ${errorMessage(error)}`);
  }
}

/**
 * Loads every `*.yaml` file of the folders, in order: a file of the same name in a later folder
 * takes the place of an earlier one's. Throws on the first bad file or on two scenarios of the
 * same name. A built-in scenario that applies to nothing of the contract is left out.
 */
export function loadScenarioFolders(
  folders: readonly ScenarioFolder[],
  contract: Contract,
): ReadonlyMap<string, Scenario> {
  const byFile = new Map<string, { source: string; builtIn: boolean }>();
  for (const { dir, builtIn = false } of folders) {
    for (const file of scenarioFiles(dir)) byFile.set(file, { source: join(dir, file), builtIn });
  }
  const scenarios = new Map<string, Scenario>();
  for (const file of [...byFile.keys()].sort()) {
    const { source, builtIn } = byFile.get(file) ?? { source: file, builtIn: false };
    const text = readFileSync(source, 'utf8');
    const scenario = builtIn
      ? parseScenario(text, source, contract, { builtIn })
      : parseScenario(text, source, contract);
    if (!scenario) continue;
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

/** Loads every `*.yaml` file of one folder; throws on the first bad file or duplicate name. */
export function loadScenarios(
  dir: string,
  contract: Contract,
  options: ReadOptions = {},
): ReadonlyMap<string, Scenario> {
  return loadScenarioFolders([{ dir, ...options }], contract);
}
