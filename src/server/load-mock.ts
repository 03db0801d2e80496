import { petCheckOf } from '../state/check-pets.js';
import type { Logger } from 'pino';
import { APP_SETTINGS, type AppDeps } from '../api/app.js';
import { pickSettings } from '../config/pick-settings.js';
import { ConfigError } from '../config/config-error.js';
import { FileError } from '../util/located-file.js';
import type { Config } from '../config/settings.js';
import { keptContract } from './kept-contracts.js';
import { loadDefinition, type MockDefinition } from './load-definition.js';
import { MockMetrics } from '../http/metrics.js';
import { createProxy } from '../proxy/proxy.js';
import { openState } from './open-state.js';
import { errorMessage } from '../util/error-message.js';
import { adminContractPath } from '../util/paths.js';
import type { Scenario } from '../contract/scenario.js';

/** A start that failed for a reason the user can act on; its message is one line. */
export class StartError extends Error {
  override name = 'StartError';
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

/** What the app was built from: its dependencies, and the definition they came from. */
export interface LoadedMock extends AppDeps {
  readonly definition: MockDefinition;
}

/**
 * Reads everything the app needs from the config: the definition (contract, scenarios checked
 * against it, initial data checked too), the admin API's contract, the state (in this process or
 * in Redis), and proxy mode's client of the real service and recording.
 */
export async function loadMock(config: Config, logger: Logger): Promise<LoadedMock> {
  try {
    const definition = await loadDefinition(config);
    const { contract, scenarios, initial } = definition;
    const { contract: adminContract } = keptContract(adminContractPath);
    const startupScenario = scenarioOf(config.scenario, scenarios);
    // Before the state, which holds the --db file's lock: a target or record file that cannot
    // be used stops the start with nothing to undo.
    const proxy =
      config.proxyTarget === undefined
        ? undefined
        : await createProxy(
            { ...config, proxyTarget: config.proxyTarget },
            {
              basePath: contract.operations.basePath,
              checkPet: petCheckOf(contract),
              logger,
            },
          );
    // Made before the state, which tells them of its round trips; none without the admin API.
    const metrics = config.noAdmin ? undefined : new MockMetrics();
    const state = await openState(
      config,
      {
        initial,
        initialSource: definition.initialSource,
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
      definition,
      contract,
      adminContract,
      state,
      scenarios,
      logger,
      ...pickSettings(config, APP_SETTINGS),
      proxy,
      metrics,
    };
  } catch (error) {
    if (error instanceof StartError || error instanceof ConfigError || error instanceof FileError) {
      throw error;
    }
    throw new StartError(errorMessage(error));
  }
}
