import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import type { Config } from './config.js';
import { loadContract, loadContractOnDemand } from './contract/load-contract.js';
import { errorMessage } from './error-message.js';
import { adminContractPath, defaultContractPath } from './paths.js';
import { loadScenarios } from './scenarios/load-scenarios.js';
import { scenarioNamed } from './scenarios/scenario.js';
import { createSession, createSessionFactory } from './sessions/create-session.js';
import { SessionRegistry } from './sessions/session-registry.js';
import { loadInitialData } from './store/initial-data-for.js';
import { openPetStore } from './store/open-store.js';

/** A start that failed for a reason the user can act on; its message is one line. */
export class StartError extends Error {
  override name = 'StartError';
}

/** Seed of scenario delays when the data is not generated from a seed. */
const DEFAULT_SEED = 1;

/**
 * Reads everything the app needs from the config: the pet API's contract (the admin API's is read
 * on first use), the scenarios (checked against the contract), the initial data (checked too) and
 * the default session's store.
 */
export async function loadMock(config: Config, logger: Logger): Promise<AppDeps> {
  try {
    const contract = loadContract(defaultContractPath);
    // Parsed on the first admin call (or never): the pet API's first answer does not wait for it.
    const adminContract = loadContractOnDemand(adminContractPath);
    const scenarios = loadScenarios(config.scenariosDir, contract);
    const startupScenario =
      config.scenario === undefined ? undefined : scenarioNamed(scenarios, config.scenario);
    const checkPet = contract.checkSchema('Pet');
    const initial = await loadInitialData(
      config.seed !== undefined
        ? { kind: 'generated', seed: config.seed, count: config.count ?? 0 }
        : { kind: 'fixtures', path: config.fixturesPath },
      checkPet,
    );
    const sessionOptions = {
      initial,
      seed: config.seed ?? DEFAULT_SEED,
      journalSize: config.journalSize,
      startupScenario,
    };
    const store = await openPetStore({ initial, dbPath: config.dbPath, checkPet });
    const sessions = new SessionRegistry(
      createSession(undefined, store, sessionOptions),
      createSessionFactory(sessionOptions),
      config.maxSessions,
    );
    return {
      contract,
      adminContract,
      sessions,
      scenarios,
      logger,
      apiKeys: config.apiKeys,
      corsOrigins: config.corsOrigins,
      defaultStatus: config.defaultStatus,
      adminToken: config.adminToken,
      admin: config.admin,
    };
  } catch (error) {
    throw error instanceof StartError ? error : new StartError(errorMessage(error));
  }
}
