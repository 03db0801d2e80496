import type { Logger } from 'pino';
import type { AppDeps } from '../api/app.js';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/settings.js';
import { loadContract } from '../contract/load-contract.js';
import { MockMetrics } from '../http/metrics.js';
import { createProxy } from '../proxy/proxy.js';
import { openState } from './open-state.js';
import { errorMessage } from '../util/error-message.js';
import { adminContractPath, defaultContractPath } from '../util/paths.js';
import { loadScenarios } from '../contract/load-scenarios.js';
import type { Scenario } from '../contract/scenario.js';
import { loadInitialData, type InitialDataSource } from '../state/initial-data-for.js';

/** A start that failed for a reason the user can act on; its message is one line. */
export class StartError extends Error {
  override name = 'StartError';
}

/** The seed of generated pets when only --count is given, and of scenario delays without one. */
const DEFAULT_SEED = 1;
/** How many pets --seed generates without --count. */
const DEFAULT_COUNT = 100;

/** Generated from a seed when --seed or --count is given, else read from the fixtures file. */
function initialDataSource(config: Config): InitialDataSource {
  if (config.seed === undefined && config.count === undefined) {
    return { kind: 'fixtures', path: config.fixtures };
  }
  return {
    kind: 'generated',
    seed: config.seed ?? DEFAULT_SEED,
    count: config.count ?? DEFAULT_COUNT,
  };
}

/** The start-up scenario; a name no scenario has is a bad setting (exit 2), not a failed start. */
function scenarioOf(
  name: string | undefined,
  scenarios: ReadonlyMap<string, Scenario>,
): Scenario | undefined {
  if (name === undefined) return undefined;
  const scenario = scenarios.get(name);
  if (!scenario) {
    throw new ConfigError(
      `--scenario: no scenario is named "${name}"; known: ${[...scenarios.keys()].join(', ')}`,
    );
  }
  return scenario;
}

/**
 * Reads everything the app needs from the config: the contracts of the pet and admin APIs, the
 * scenarios (checked against the contract), the initial data (checked too), the default
 * session's store, and proxy mode's client of the real service and recording.
 */
export async function loadMock(config: Config, logger: Logger): Promise<AppDeps> {
  try {
    const contract = loadContract(defaultContractPath);
    const adminContract = loadContract(adminContractPath);
    const scenarios = loadScenarios(config.scenariosDir, contract);
    const startupScenario = scenarioOf(config.scenario, scenarios);
    const checkPet = contract.checkSchema('Pet');
    const initial = await loadInitialData(initialDataSource(config), checkPet);
    // Before the state, which holds the --db file's lock: a target or record file that cannot
    // be used stops the start with nothing to undo.
    const proxy =
      config.proxyTarget === undefined
        ? undefined
        : await createProxy(
            { ...config, proxyTarget: config.proxyTarget },
            {
              basePath: contract.operations.basePath,
              checkPet,
              logger,
            },
          );
    const source = initialDataSource(config);
    // Made before the state, which tells them of its round trips; none without the admin API.
    const metrics = config.noAdmin ? undefined : new MockMetrics();
    const state = await openState(
      config,
      {
        initial,
        initialSource:
          source.kind === 'fixtures'
            ? `fixtures ${source.path}`
            : `seed ${source.seed}, count ${source.count}`,
        contract,
        startupScenario: startupScenario?.name,
      },
      logger,
      metrics &&
        ((failed) => {
          metrics.countRoundTrip('redis', failed);
        }),
    );
    return {
      contract,
      adminContract,
      state,
      scenarios,
      logger,
      seed: config.seed ?? DEFAULT_SEED,
      maxSessions: config.maxSessions,
      apiKeys: config.apiKeys,
      corsOrigin: config.corsOrigin,
      defaultStatus: config.defaultStatus,
      adminToken: config.adminToken,
      noAdmin: config.noAdmin,
      proxy,
      metrics,
    };
  } catch (error) {
    if (error instanceof StartError || error instanceof ConfigError) throw error;
    throw new StartError(errorMessage(error));
  }
}
