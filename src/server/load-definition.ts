import type { DefinitionPart } from '../api/mock-control.js';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/settings.js';
import type { Contract } from '../contract/load-contract.js';
import { keptContract } from './kept-contracts.js';
import { inferResources } from '../contract/infer-resources.js';
import { hintsFilePath, readResourceHints } from '../contract/resource-hints.js';
import type { ResourceModel } from '../contract/resource-model.js';
import { loadScenarioFolders, type ScenarioFolder } from '../contract/load-scenarios.js';
import type { Scenario } from '../contract/scenario.js';
import { loadInitialData, type InitialDataSource } from '../state/initial-data-for.js';
import type { StoreData } from '../state/store-data.js';
import { digestOf, textOf } from '../util/file-digest.js';
import { FileError } from '../util/located-file.js';
import { defaultContractPath, defaultFixturesPath, defaultScenariosDir } from '../util/paths.js';
import { storeDataFrom } from '../state/store-data.js';

/**
 * What the mock serves, read from files: the contract, the scenarios checked against it, and the
 * initial pets checked against its Pet schema (none for a contract without one). One version of it serves every request that
 * arrives while it is current; a reload makes a new one and swaps it whole.
 */
export interface MockDefinition {
  readonly contract: Contract;
  readonly scenarios: ReadonlyMap<string, Scenario>;
  readonly initial: StoreData;
  /** How the initial data is made, in words: `fixtures <file>` or `seed 1, count 100`. */
  readonly initialSource: string;
  /** The contract's resources, inferred with its hints (docs/resources.md). */
  readonly resources: ResourceModel;
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

/** Whether a path is a folder (false for one that is not there). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The folders scenarios are read from, in order (a file of the same name in a later one wins):
 * the built-in ones, `./scenarios` where the mock is started if there is one, and --scenarios-dir.
 * A folder is read once, whichever way it is named.
 */
export function scenarioFoldersOf(
  config: Pick<Config, 'scenariosDir'>,
  cwd = process.cwd(),
): ScenarioFolder[] {
  const folders: ScenarioFolder[] = [{ dir: defaultScenariosDir, builtIn: true }];
  const local = join(cwd, 'scenarios');
  if (isFolder(local)) folders.push({ dir: local });
  if (config.scenariosDir !== undefined) folders.push({ dir: config.scenariosDir });
  const seen = new Set<string>();
  return folders.filter(({ dir }) => {
    const real = realPath(dir);
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/**
 * What each part of the definition would read now, as digests. `contractFiles`: the files the
 * contract was last read from (its own, and those its references name); the contract's part
 * covers its hints file too (`<name>.mock-hints.yaml`, docs/resources.md).
 */
export function currentDigests(
  config: Config,
  contractFiles: readonly string[] = [config.contract],
): Record<DefinitionPart, string> {
  return readDigests(config, contractFiles).digests;
}

/** The parts' digests, and the contract files' own (what kept-contracts.ts compares). */
function readDigests(
  config: Config,
  contractFiles: readonly string[],
): { digests: Record<DefinitionPart, string>; contractFiles: string } {
  const source = initialDataSource(config);
  const files = digestOf(contractFiles.map(textOf));
  return {
    contractFiles: files,
    digests: {
      contract: withHints(config.contract, files),
      scenarios: digestOf(scenarioFoldersOf(config).map(({ dir }) => folderDigest(dir))),
      fixtures:
        source.kind === 'fixtures'
          ? digestOf([textOf(source.path)])
          : digestOf([`seed ${source.seed}`, `count ${source.count}`]),
    },
  };
}

/** The contract part's digest: its files', and its hints file's (absent reads as absent). */
function withHints(contractPath: string, filesDigest: string): string {
  return digestOf([filesDigest, textOf(hintsFilePath(contractPath))]);
}

/**
 * Reads the definition the config names. A user's contract (--contract, or any reload) is checked
 * whole; a file that cannot be used throws a FileError naming its line and column.
 */
export async function loadDefinition(
  config: Config,
  { reload = false, contractFiles }: { reload?: boolean; contractFiles?: readonly string[] } = {},
): Promise<MockDefinition> {
  // Digests first: an edit landing while the files are read is then seen again by the next look.
  const read = readDigests(config, contractFiles ?? [config.contract]);
  const { digests } = read;
  const checked = reload || config.contract !== defaultContractPath;
  // Read once per version of its files in this process (kept-contracts.ts).
  const { contract, digest } = keptContract(config.contract, {
    checked,
    digested: read.contractFiles,
    digestedFiles: contractFiles ?? [config.contract],
  });
  digests.contract = withHints(config.contract, digest);
  const resources: ResourceModel =
    config.resources === 'off'
      ? { resources: [], stateless: [] }
      : inferResources(
          contract.document,
          contract.operations,
          readResourceHints(config.contract, contract.document, contract.operations),
        );
  const scenarios = loadScenarioFolders(scenarioFoldersOf(config), contract);
  const source = initialDataSource(config);
  const pets = await initialPets(config, source, contract);
  return {
    contract,
    scenarios,
    initial: pets.initial,
    initialSource: pets.source,
    resources,
    digests,
  };
}

/**
 * The initial pets, checked against the contract's Pet schema. A contract without one keeps no
 * pets; the packaged fixtures are the Pet Store's, and serve only a contract whose Pet schema
 * takes them (a file given with --fixtures must fit, or the start stops naming it).
 */
async function initialPets(
  config: Config,
  source: InitialDataSource,
  contract: Contract,
): Promise<{ initial: StoreData; source: string }> {
  const none = (why: string) => ({ initial: storeDataFrom([]), source: `no pets (${why})` });
  if (!contract.hasSchema('Pet')) {
    if (source.kind === 'fixtures' && source.path !== defaultFixturesPath) {
      throw new FileError(
        config.contract,
        `--fixtures ${source.path}: the contract has no components.schemas.Pet to keep pets as`,
      );
    }
    return none('the contract has no Pet schema');
  }
  const checkPet = contract.checkSchema('Pet');
  const described =
    source.kind === 'fixtures'
      ? `fixtures ${source.path}`
      : `seed ${source.seed}, count ${source.count}`;
  if (source.kind === 'fixtures' && source.path === defaultFixturesPath) {
    try {
      return { initial: await loadInitialData(source, checkPet), source: described };
    } catch (error) {
      if (!(error instanceof FileError) || contract.path === defaultContractPath) throw error;
      return none(`the packaged fixtures do not fit the contract's Pet schema: ${error.reason}`);
    }
  }
  return { initial: await loadInitialData(source, checkPet), source: described };
}
