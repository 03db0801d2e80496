import type { Logger } from 'pino';
import { ADMIN_PATH } from '../api/app.js';
import { ConfigError, loadConfig } from '../config/load-config.js';
import { formatCoverage, type CoverageFormat } from '../state/coverage-formats.js';
import { reportCoverage, type CoverageReport } from '../state/coverage-report.js';
import { createLogger, type LogLevel } from '../util/logger.js';
import type { PetStatus } from '../state/pet.js';
import { scenarioNamed } from '../contract/scenario.js';
import { startServer } from './start-server.js';
import type { JournalEntry } from '../state/request-journal.js';
import { resetSession, type Session } from '../state/session.js';

/** Options of an in-process mock: the CLI's options, in camelCase. */
export interface MockServerOptions {
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  db?: string;
  seed?: number;
  count?: number;
  fixtures?: string;
  /** Only these bearer tokens; an empty list is refused (it would accept any): leave it out. */
  apiKeys?: readonly string[];
  defaultStatus?: PetStatus;
  /** Default `silent`. */
  logLevel?: LogLevel;
  corsOrigins?: readonly string[];
  scenario?: string;
  scenariosDir?: string;
  maxSessions?: number;
  journalSize?: number;
  /** Pets one session may add until its reset (default 100000); more answer 507 store_full. */
  maxPets?: number;
  /** Bytes the added pets of all sessions may take (256 MiB). */
  maxStoreBytes?: number;
  /** Bytes all sessions' journals may keep together (64 MiB). */
  journalBytes?: number;
  /** Every admin call must carry it; an empty token is refused (leave it out for open admin). */
  adminToken?: string;
  /** Write the whole suite's coverage report here on close (.json, .md or .xml). */
  coverageReport?: string;
  /** Proxy mode: the real service's base address, e.g. `https://staging.example.com/v1`. */
  proxyTarget?: string;
  proxyStrict?: boolean;
  /** Milliseconds; default 10000. */
  proxyTimeout?: number;
  proxyInsecure?: boolean;
  /** A fixtures file to keep the pets of the real service's valid answers in. */
  record?: string;
  /** Open connections at once (default 1000). */
  maxConnections?: number;
  /** Answer bytes one connection may leave untaken before its next requests wait (1 MiB). */
  maxQueuedBytes?: number;
  /** Answer bytes all connections may leave untaken (64 MiB). */
  maxQueuedTotal?: number;
  /** Requests one connection may send ahead of its answers (100). */
  maxPipelined?: number;
  /** Milliseconds to send the request line and headers (10000). */
  headersTimeout?: number;
  /** Milliseconds to send the whole request (30000). */
  requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection is kept (5000). */
  keepAliveTimeout?: number;
  /** Milliseconds a client may take none of its answers before its connection is closed (30000). */
  writeTimeout?: number;
  /** A logger of your own instead of one built from logLevel. */
  logger?: Logger;
}

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
  /** Switches a scenario on, for the next `times` matching requests if given. */
  useScenario(name: string, options?: { times?: number; session?: string }): void;
  clearScenario(session?: string): void;
  /** The journal, newest first. */
  requests(options?: { limit?: number; session?: string }): JournalEntry[];
  /** What the tests exercised of the contract: the whole suite's, or one session's. */
  coverage(options?: { session?: string }): CoverageReport;
  /** The same, written out: `markdown`, `junit`, `text` or `json`. */
  coverage(options: { session?: string; format: CoverageFormat }): string;
  /** Forgets the coverage: one session's, or without one every coverage. A reset keeps it. */
  clearCoverage(session?: string): void;
  /** Stops accepting, finishes in-flight requests, writes the store (and coverageReport). */
  close(): Promise<void>;
}

const FLAGS: Record<string, string> = {
  apiKeys: 'api-keys',
  defaultStatus: 'default-status',
  logLevel: 'log-level',
  corsOrigins: 'cors-origin',
  scenariosDir: 'scenarios-dir',
  maxSessions: 'max-sessions',
  journalSize: 'journal-size',
  journalBytes: 'journal-bytes',
  maxPets: 'max-pets',
  maxStoreBytes: 'max-store-bytes',
  adminToken: 'admin-token',
  coverageReport: 'coverage-report',
  proxyTarget: 'proxy-target',
  proxyStrict: 'proxy-strict',
  proxyTimeout: 'proxy-timeout',
  proxyInsecure: 'proxy-insecure',
  maxConnections: 'max-connections',
  maxQueuedBytes: 'max-queued-bytes',
  maxQueuedTotal: 'max-queued-total',
  maxPipelined: 'max-pipelined',
  headersTimeout: 'headers-timeout',
  requestTimeout: 'request-timeout',
  keepAliveTimeout: 'keep-alive-timeout',
  writeTimeout: 'write-timeout',
};

/** The options as CLI flags, so both go through the same checks in loadConfig. */
function toArgv(options: MockServerOptions): string[] {
  const { logger, ...settings } = options; // the logger is not a flag
  const given: Record<string, string | number | boolean | readonly string[] | undefined> = {
    port: 0,
    logLevel: 'silent',
    ...settings,
  };
  return Object.entries(given).flatMap(([key, value]) => {
    if (value === undefined || value === false) return [];
    if (value === true) return [`--${FLAGS[key] ?? key}`]; // a switch
    const text = typeof value === 'object' ? value.join(',') : String(value);
    return [`--${FLAGS[key] ?? key}`, text];
  });
}

/**
 * Starts the mock in this process on a free port (unless `port` is given), from the same config
 * checks as the CLI; the environment is not read, so test suites stay hermetic.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const command = loadConfig(toArgv(options), {});
  if (command.kind !== 'run') throw new ConfigError('help and version are not server options');
  const { config } = command;
  const logger = options.logger ?? createLogger(config.logLevel, false);
  const server = await startServer(config, logger);
  const { sessions, scenarios } = server.deps;
  const sessionOf = (id: string | undefined): Session => sessions.get(id);
  function coverage(options?: { session?: string }): CoverageReport;
  function coverage(options: { session?: string; format: CoverageFormat }): string;
  function coverage(
    options: { session?: string; format?: CoverageFormat } = {},
  ): CoverageReport | string {
    const operations = server.deps.contract.operations.operations;
    const report = reportCoverage(operations, sessions.coverageOf(options.session));
    return options.format === undefined ? report : formatCoverage(report, options.format);
  }
  return {
    url: server.apiUrl,
    origin: server.url,
    adminUrl: `${server.url}${ADMIN_PATH}`,
    port: server.port,
    reset: (session) => resetSession(sessionOf(session)),
    useScenario: (name, { times, session } = {}) => {
      sessionOf(session).scenarios.activate(scenarioNamed(scenarios, name), times);
    },
    clearScenario: (session) => {
      sessionOf(session).scenarios.deactivate();
    },
    requests: ({ limit = 50, session } = {}) => sessionOf(session).journal.list(limit),
    coverage,
    clearCoverage: (session) => {
      sessions.clearCoverage(session);
    },
    close: () => server.close(),
  };
}
