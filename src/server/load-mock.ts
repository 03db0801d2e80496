import type { Logger } from 'pino';
import type { AppDeps } from '../api/app.js';
import type { Config } from '../config/load-config.js';
import { loadContract } from '../contract/load-contract.js';
import { createProxy } from '../proxy/proxy.js';
import { errorMessage } from '../util/error-message.js';
import { adminContractPath, defaultContractPath } from '../util/paths.js';
import { loadScenarios } from '../contract/load-scenarios.js';
import { scenarioNamed } from '../contract/scenario.js';
import { createSession, createSessionFactory } from '../state/create-session.js';
import { SessionRegistry } from '../state/session-registry.js';
import { loadInitialData } from '../state/initial-data-for.js';
import { openPetStore } from '../state/open-store.js';
import { StoreBudget } from '../state/store-budget.js';

/** A start that failed for a reason the user can act on; its message is one line. */
export class StartError extends Error {
  override name = 'StartError';
}

/** Seed of scenario delays when the data is not generated from a seed. */
const DEFAULT_SEED = 1;

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
    const startupScenario =
      config.scenario === undefined ? undefined : scenarioNamed(scenarios, config.scenario);
    const checkPet = contract.checkSchema('Pet');
    const initial = await loadInitialData(
      config.seed !== undefined
        ? { kind: 'generated', seed: config.seed, count: config.count ?? 0 }
        : { kind: 'fixtures', path: config.fixturesPath },
      checkPet,
    );
    const budget = new StoreBudget(config.store);
    const sessionOptions = {
      initial,
      seed: config.seed ?? DEFAULT_SEED,
      journalSize: config.journalSize,
      // Each session's share, the default session's included, so all of them fit together.
      journalBytes: Math.floor(config.journalBytes / (config.maxSessions + 1)),
      startupScenario,
      budget,
    };
    // Before the store, which holds the --db file's lock: a target or record file that cannot
    // be used stops the start with nothing to undo.
    const proxy =
      config.proxy &&
      (await createProxy(config.proxy, {
        basePath: contract.operations.basePath,
        checkPet,
        logger,
      }));
    const store = await openPetStore({
      initial,
      dbPath: config.dbPath,
      checkPet,
      budget,
      warn: (message) => {
        logger.warn(message);
      },
    });
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
      proxy,
    };
  } catch (error) {
    throw error instanceof StartError ? error : new StartError(errorMessage(error));
  }
}
