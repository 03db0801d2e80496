import type { DefinitionPart } from '../api/mock-control.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/settings.js';
import { loadContract, type Contract } from '../contract/load-contract.js';
import { loadScenarios } from '../contract/load-scenarios.js';
import type { Scenario } from '../contract/scenario.js';
import { loadInitialData, type InitialDataSource } from '../state/initial-data-for.js';
import type { StoreData } from '../state/store-data.js';
import { createHash } from 'node:crypto';
import { FileError } from '../util/located-file.js';
import { defaultContractPath } from '../util/paths.js';

/**
 * What the mock serves, read from files: the contract, the scenarios checked against it, and the
 * initial data checked against its Pet schema. One version of it serves every request that
 * arrives while it is current; a reload makes a new one and swaps it whole.
 */
export interface MockDefinition {
  readonly contract: Contract;
  readonly scenarios: ReadonlyMap<string, Scenario>;
  readonly initial: StoreData;
  /** How the initial data is made, in words: `fixtures <file>` or `seed 1, count 100`. */
  readonly initialSource: string;
  /** A digest of each part's files as read: what a reload compares. */
  readonly digests: Readonly<Record<DefinitionPart, string>>;
}

/** The seed of generated pets when only --count is given. */
export const DEFAULT_SEED = 1;
/** How many pets --seed generates without --count. */
const DEFAULT_COUNT = 100;

/** Generated from a seed when --seed or --count is given, else read from the fixtures file. */
export function initialDataSource(config: Config): InitialDataSource {
  if (config.seed === undefined && config.count === undefined) {
    return { kind: 'fixtures', path: config.fixtures };
  }
  return {
    kind: 'generated',
    seed: config.seed ?? DEFAULT_SEED,
    count: config.count ?? DEFAULT_COUNT,
  };
}

function digestOf(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${String(text.length)}:${text}`);
  return hash.digest('hex').slice(0, 16);
}

/** The text of a file for its digest; a file that cannot be read digests as its error. */
function textOf(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return `unreadable: ${String(error)}`;
  }
}

/** The digest of a scenario folder: its YAML files' names and texts. */
function folderDigest(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort();
  } catch {
    names = [];
  }
  return digestOf(names.flatMap((name) => [name, textOf(join(dir, name))]));
}

/** What each part of the definition would read now, as digests. */
export function currentDigests(config: Config): Record<DefinitionPart, string> {
  const source = initialDataSource(config);
  return {
    contract: digestOf([textOf(config.contract)]),
    scenarios: folderDigest(config.scenariosDir),
    fixtures:
      source.kind === 'fixtures'
        ? digestOf([textOf(source.path)])
        : digestOf([`seed ${source.seed}`, `count ${source.count}`]),
  };
}

/**
 * Reads the definition the config names. A user's contract (--contract, or any reload) is checked
 * whole; a file that cannot be used throws a FileError naming its line and column.
 */
export async function loadDefinition(
  config: Config,
  { reload = false }: { reload?: boolean } = {},
): Promise<MockDefinition> {
  // Digests first: an edit landing while the files are read is then seen again by the next look.
  const digests = currentDigests(config);
  const checked = reload || config.contract !== defaultContractPath;
  const contract = loadContract(config.contract, { checked });
  const scenarios = loadScenarios(config.scenariosDir, contract);
  let checkPet;
  try {
    checkPet = contract.checkSchema('Pet');
  } catch {
    throw new FileError(
      config.contract,
      'the contract has no components.schemas.Pet, which the pets are kept and checked as',
    );
  }
  const source = initialDataSource(config);
  const initial = await loadInitialData(source, checkPet);
  return {
    contract,
    scenarios,
    initial,
    initialSource:
      source.kind === 'fixtures'
        ? `fixtures ${source.path}`
        : `seed ${source.seed}, count ${source.count}`,
    digests,
  };
}
