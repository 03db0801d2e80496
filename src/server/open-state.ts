import { petCheckOf } from '../state/check-pets.js';
import type { Logger } from 'pino';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/settings.js';
import type { Contract } from '../contract/load-contract.js';
import { LocalState } from '../state/local-state.js';
import type { MockState } from '../state/mock-state.js';
import { openPetStore } from '../state/open-store.js';
import { StoreBudget } from '../state/store-budget.js';
import type { StoreData } from '../state/store-data.js';
import { createHash } from 'node:crypto';
import { stringifyJson } from '../util/json-codec.js';

/** What the state starts from, and what to tell apart on a shared prefix. */
export interface StateSources {
  readonly initial: StoreData;
  /** How the initial data was made, in words: `seed 1, count 100` or `fixtures <file>`. */
  readonly initialSource: string;
  readonly contract: Contract;
  readonly startupScenario: string | undefined;
}

function digest(value: unknown): string {
  return createHash('sha256').update(stringifyJson(value)).digest('hex').slice(0, 16);
}

/** What replicas on one Redis prefix must share, in words: the contract and the initial data. */
export function identityOf(
  sources: Pick<StateSources, 'contract' | 'initial' | 'initialSource'>,
): Record<string, string> {
  return {
    contract: `sha256 ${digest(sources.contract.document)}`,
    initial: `${sources.initialSource} (sha256 ${digest(sources.initial.pets)})`,
  };
}

/**
 * The state the config asks for: Redis with --state-url, else this process's (the default
 * session's pets in the --db file, or in memory). Its round trips to Redis are told to
 * `onRoundTrip` (the metrics).
 */
export async function openState(
  config: Config,
  sources: StateSources,
  logger: Logger,
  onRoundTrip?: (failed: boolean) => void,
): Promise<MockState> {
  const { initial, startupScenario } = sources;
  if (config.stateUrl !== undefined) {
    // Loaded only for Redis: ioredis costs a mock in memory start time and RSS for nothing.
    const { PrefixTakenError, RedisState } = await import('../state/redis-state.js');
    try {
      return await RedisState.connect({
        settings: { ...config, stateUrl: config.stateUrl },
        initial,
        startupScenario,
        identity: identityOf(sources),
        onRoundTrip,
        onLostRecords: (count, error) => {
          logger.warn({ err: error, count }, 'journal and coverage records lost: Redis is away');
        },
      });
    } catch (error) {
      // Another mock's data on the prefix is a setting to change, not a failure to retry.
      if (error instanceof PrefixTakenError) throw new ConfigError(error.message);
      throw error;
    }
  }
  const budget = new StoreBudget(config);
  const defaultStore = await openPetStore({
    initial,
    db: config.db,
    checkPet: petCheckOf(sources.contract),
    budget,
    warn: (message) => {
      logger.warn(message);
    },
  });
  return new LocalState({
    kind: config.db === undefined ? 'memory' : 'file',
    defaultStore,
    initial,
    budget,
    settings: config,
    startupScenario,
  });
}
