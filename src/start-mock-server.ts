import type { Logger } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, type LogLevel } from './logger.js';
import type { PetStatus } from './pets/pet.js';
import { scenarioNamed } from './scenarios/scenario.js';
import { startServer } from './server.js';
import type { JournalEntry } from './sessions/journal.js';
import { resetSession, type Session } from './sessions/session.js';

/** Options of an in-process mock: the CLI's options, in camelCase. */
export interface MockServerOptions {
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  db?: string;
  seed?: number;
  count?: number;
  fixtures?: string;
  apiKeys?: readonly string[];
  defaultStatus?: PetStatus;
  /** Default `silent`. */
  logLevel?: LogLevel;
  corsOrigins?: readonly string[];
  scenario?: string;
  scenariosDir?: string;
  maxSessions?: number;
  journalSize?: number;
  adminToken?: string;
  /** A logger of your own instead of one built from logLevel. */
  logger?: Logger;
}

/** A running in-process mock and the controls a test suite needs. */
export interface MockServer {
  /** The pet API's base URL, e.g. `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** The server's origin, e.g. `http://127.0.0.1:54321` (the admin API is under /__admin). */
  readonly origin: string;
  readonly port: number;
  /** Initial data, start-up scenario and empty journal again (one session, or the default). */
  reset(session?: string): Promise<void>;
  /** Switches a scenario on, for the next `times` matching requests if given. */
  useScenario(name: string, options?: { times?: number; session?: string }): void;
  clearScenario(session?: string): void;
  /** The journal, newest first. */
  requests(options?: { limit?: number; session?: string }): JournalEntry[];
  /** Stops accepting, finishes in-flight requests, writes the store. */
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
  adminToken: 'admin-token',
};

/** The options as CLI flags, so both go through the same checks in loadConfig. */
function toArgv(options: MockServerOptions): string[] {
  const { logger, ...settings } = options; // the logger is not a flag
  const given: Record<string, string | number | readonly string[] | undefined> = {
    port: 0,
    logLevel: 'silent',
    ...settings,
  };
  return Object.entries(given).flatMap(([key, value]) => {
    if (value === undefined) return [];
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
  return {
    url: server.apiUrl,
    origin: server.url,
    port: server.port,
    reset: (session) => resetSession(sessionOf(session)),
    useScenario: (name, { times, session } = {}) => {
      sessionOf(session).scenarios.activate(scenarioNamed(scenarios, name), times);
    },
    clearScenario: (session) => {
      sessionOf(session).scenarios.deactivate();
    },
    requests: ({ limit = 50, session } = {}) => sessionOf(session).journal.list(limit),
    close: () => server.close(),
  };
}
