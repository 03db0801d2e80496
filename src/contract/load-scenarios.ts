import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Contract } from './load-contract.js';
import type { Operation } from './operation-index.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { parseYaml } from '../util/parse-yaml.js';
import { FileError, parseLocated, type PathStep, type Position } from '../util/located-file.js';
import type { Rule, Scenario } from './scenario.js';
import { RULE_KINDS } from './rule-kinds/all-kinds.js';
import { RuleError } from './rule-kinds/rule-kind.js';
import { createScenarioCheck, SCENARIO_NAME } from './scenario-schema.js';

/** The schema check of scenario files, compiled once for a load. */
type ScenarioCheck = ReturnType<typeof createScenarioCheck>;

/** A scenario file that cannot be used; the message names the file, line and column, and the rule. */
export class ScenarioError extends FileError {
  override name = 'ScenarioError';
}

/** How a scenario file is read against a contract. */
interface ReadOptions {
  /**
   * A scenario shipped with the mock (the Pet Store's): its rules apply where the contract has
   * what they name, and are left out elsewhere. A user's own file is refused instead.
   */
  readonly builtIn?: boolean;
}

/** How one file is parsed: the schema check is compiled once for a whole load, else here. */
interface ParseOptions extends ReadOptions {
  readonly check?: ScenarioCheck;
}

/** Names a few things in words: `a status, a delay or a fault`. */
function either(names: readonly string[], last: string): string {
  const words = names.map((name) => `a ${name}`);
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1) ?? ''}`;
}

function operationsOf(value: unknown, contract: Contract, builtIn: boolean): Rule['operations'] {
  if (value === 'all') return 'all';
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) {
    throw new RuleError(
      'operations must be "all", an operation (operationId, or "GET /path") or a list of them',
    );
  }
  const found: string[] = [];
  for (const name of names) {
    const op = contract.operations.find(name);
    if (op) found.push(op.name);
    else if (!builtIn) {
      const known = contract.operations.operations.map((o) => o.name).join(', ');
      throw new RuleError(`unknown operation "${name}" (the contract has ${known})`);
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

/** The operations of a rule as written that its kinds can apply to, and why none can. */
function fitting(
  value: Readonly<Record<string, unknown>>,
  matched: readonly Operation[],
  contract: Contract,
): { readonly operations: readonly Operation[]; readonly noneFits?: string } {
  const fits = RULE_KINDS.flatMap((kind) => kind.fit?.(value, contract) ?? []);
  return {
    operations: matched.filter((op) => fits.every((fit) => fit.fits(op))),
    noneFits: fits[0]?.noneFits,
  };
}

/**
 * Which operations a rule applies to. A user's `all` is every operation its kinds fit (refused
 * when none does); a built-in rule is cut to the operations it fits, and left out (undefined)
 * when none does.
 */
function operationsFor(
  value: Readonly<Record<string, unknown>>,
  contract: Contract,
  builtIn: boolean,
): Rule['operations'] | undefined {
  const named = operationsOf(value.operations, contract, builtIn);
  if (named !== 'all' && !builtIn) return named;
  const matched = matchedOperations(named, contract);
  const fit = fitting(value, matched, contract);
  if (fit.operations.length === 0) {
    if (builtIn) return undefined;
    if (fit.noneFits !== undefined) throw new RuleError(fit.noneFits);
  }
  return named === 'all' && fit.operations.length === matched.length
    ? 'all'
    : fit.operations.map((op) => op.name);
}

/**
 * A rule as written, read by its kinds against the contract; undefined for a built-in rule that
 * applies to nothing of the contract.
 */
function ruleOf(value: unknown, contract: Contract, builtIn: boolean): Rule | undefined {
  if (!isRecord(value)) throw new RuleError('a rule must be a mapping');
  const operations = operationsFor(value, contract, builtIn);
  if (operations === undefined) return undefined;
  const site = { contract, operations: matchedOperations(operations, contract) };
  const present = RULE_KINDS.filter((kind) => value[kind.name] !== undefined);
  let rule: Rule = { operations };
  if (value.chance !== undefined) rule = { ...rule, chance: chanceOf(value.chance) };
  for (const kind of RULE_KINDS) rule = { ...rule, ...kind.parse(value, site) };
  // Answering kinds in the order written: `either a fault or a status`.
  const answering = present
    .filter((kind) => kind.answers)
    .sort((a, b) => Object.keys(value).indexOf(a.name) - Object.keys(value).indexOf(b.name));
  if (answering.length > 1) {
    throw new RuleError(
      `a rule has either ${either(
        answering.map((kind) => kind.name),
        'or',
      )}, not both`,
    );
  }
  if (present.length === 0) {
    throw new RuleError(
      `a rule needs ${either(
        RULE_KINDS.map((kind) => kind.name),
        'or',
      )}`,
    );
  }
  return rule;
}

function chanceOf(value: unknown): number {
  if (typeof value === 'number' && value > 0 && value <= 1) return value;
  throw new RuleError('chance must be a number above 0 and at most 1');
}

/**
 * Parses and checks one scenario file against the contract. A built-in one keeps the rules that
 * apply to the contract, and is undefined when none does.
 */
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  options: ParseOptions & { builtIn: true },
): Scenario | undefined;
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  options?: ParseOptions,
): Scenario;
export function parseScenario(
  text: string,
  source: string,
  contract: Contract,
  { builtIn = false, check }: ParseOptions = {},
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
  const problem = (check ?? createScenarioCheck())(parsed);
  if (problem) {
    const reason =
      problem.rule === undefined ? problem.reason : `rule ${problem.rule + 1}: ${problem.reason}`;
    throw refuse(reason, problem.path);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.rules))
    throw refuse('expected a mapping with "rules"', []);
  // The schema checks a given name; one taken from the file's name is checked here.
  const name = parsed.name ?? basename(source).replace(/\.ya?ml$/, '');
  if (typeof name !== 'string' || !SCENARIO_NAME.test(name)) {
    throw refuse('name must be lowercase letters, digits and dashes', ['name']);
  }
  const description = typeof parsed.description === 'string' ? parsed.description : '';
  const rules = parsed.rules.flatMap((rule: unknown, index) => {
    try {
      return ruleOf(rule, contract, builtIn) ?? [];
    } catch (error) {
      if (error instanceof RuleError)
        throw refuse(`rule ${index + 1}: ${error.message}`, ['rules', index]);
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
  const check = createScenarioCheck();
  for (const file of [...byFile.keys()].sort()) {
    const { source, builtIn } = byFile.get(file) ?? { source: file, builtIn: false };
    const text = readFileSync(source, 'utf8');
    const scenario = builtIn
      ? parseScenario(text, source, contract, { builtIn, check })
      : parseScenario(text, source, contract, { check });
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
