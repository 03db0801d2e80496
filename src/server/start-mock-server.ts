import type { Logger } from 'pino';
import { ADMIN_PATH } from '../api/app.js';
import { configFromOptions } from '../config/load-config.js';
import type { Config, SettingName } from '../config/settings.js';
import { formatCoverage, type CoverageFormat } from '../state/coverage-formats.js';
import { reportCoverage, type CoverageReport } from '../state/coverage-report.js';
import { createLogger } from '../util/logger.js';
import { scenarioNamed } from '../contract/scenario.js';
import { startServer } from './start-server.js';
import type { ReloadOutcome } from '../api/mock-control.js';
import type { JournalEntry } from '../state/request-journal.js';

/**
 * Options of an in-process mock: every setting of the CLI, named as in the settings table (the
 * flag in camelCase: `--max-pets` is `maxPets`), with its type; docs/options.md lists them.
 */
export type MockServerOptions = { readonly [K in SettingName]?: Config[K] } & {
  /** A logger of your own instead of one built from logLevel. */
  readonly logger?: Logger;
};

/** A running in-process mock and the controls a test suite needs. */
export interface MockServer {
  /** The pet API's base URL, e.g. `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** The server's origin, e.g. `http://127.0.0.1:54321` (the admin API is under /__admin). */
  readonly origin: string;
  /** The admin API's base URL, e.g. `http://127.0.0.1:54321/__admin`. */
  readonly adminUrl: string;
  readonly port: number;
  /** Initial data, start-up scenario and empty journal again (one session, or the default). */
  reset(session?: string): Promise<void>;
  /**
   * Switches a scenario on, for the next `times` matching requests if given. An unknown name
   * throws at once (UnknownScenarioError).
   */
  useScenario(name: string, options?: { times?: number; session?: string }): Promise<void>;
  clearScenario(session?: string): Promise<void>;
  /** The journal, newest first. */
  requests(options?: { limit?: number; session?: string }): Promise<JournalEntry[]>;
  /** What the tests exercised of the contract: the whole suite's, or one session's. */
  coverage(options?: { session?: string }): Promise<CoverageReport>;
  /** The same, written out: `markdown`, `junit`, `text` or `json`. */
  coverage(options: { session?: string; format: CoverageFormat }): Promise<string>;
  /** Forgets the coverage: one session's, or without one every coverage. A reset keeps it. */
  clearCoverage(session?: string): Promise<void>;
  /**
   * Reads the contract, the scenarios and the fixtures again and applies what changed, keeping
   * pets, sessions, journals and coverage; rejects (ReloadRefusedError) when it cannot, the last
   * good version serving. `reset` applies it with every session reset.
   */
  reload(options?: { reset?: boolean }): Promise<ReloadOutcome>;
  /** Stops accepting, finishes in-flight requests, writes the store (and coverageReport). */
  close(): Promise<void>;
}

/**
 * Starts the mock in this process on a free port (unless `port` is given), from the same config
 * checks as the CLI; the environment is not read, so test suites stay hermetic.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { logger: given, ...settings } = options;
  // A free port and no log lines, unless told otherwise; the environment is not read.
  const config = configFromOptions({ port: 0, logLevel: 'silent', ...settings });
  const logger = given ?? createLogger(config.logLevel, false);
  const server = await startServer(config, logger);
  const { state } = server.deps;
  function coverage(options?: { session?: string }): Promise<CoverageReport>;
  function coverage(options: { session?: string; format: CoverageFormat }): Promise<string>;
  async function coverage(
    options: { session?: string; format?: CoverageFormat } = {},
  ): Promise<CoverageReport | string> {
    const { session, format } = options;
    const tally = await state.coverage(session === undefined ? { suite: true } : { session });
    const report = reportCoverage(server.definition().contract.operations.operations, tally);
    return format === undefined ? report : formatCoverage(report, format);
  }
  return {
    url: server.apiUrl,
    origin: server.url,
    adminUrl: `${server.url}${ADMIN_PATH}`,
    port: server.port,
    reset: (session) => state.reset(session),
    useScenario: (name, { times, session } = {}) =>
      state.activate(session, scenarioNamed(server.definition().scenarios, name).name, times),
    clearScenario: (session) => state.deactivate(session),
    requests: ({ limit = 50, session } = {}) => state.journal(session, limit),
    coverage,
    clearCoverage: (session) => state.clearCoverage(session),
    reload: (options) => server.reload(options),
    close: () => server.close(),
  };
}
