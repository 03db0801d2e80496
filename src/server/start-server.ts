import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type AppDeps } from '../api/app.js';
import type { Config } from '../config/settings.js';
import { createHttpServer, type HttpServer } from './create-http-server.js';
import { isRecord } from '../util/is-record.js';
import { loadMock, StartError } from './load-mock.js';
import type { MockDefinition } from './load-definition.js';
import { Reloader } from './reloader.js';
import { watchFiles, watchedPaths, type Watcher } from './watch-files.js';
import type { MockControl, ReloadOutcome } from '../api/mock-control.js';
import type { Contract } from '../contract/load-contract.js';
import { coverageFormatOfFile, formatCoverage } from '../state/coverage-formats.js';
import { reportCoverage } from '../state/coverage-report.js';
import type { MockState } from '../state/mock-state.js';
import { writeFileAtomically } from '../util/write-file-atomically.js';

/** A listening mock. */
export interface RunningServer {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Base address of the pet API, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string;
  readonly port: number;
  /** What the app was built from: the state, the logger; the contract and scenarios it started with. */
  readonly deps: AppDeps;
  /** What it serves now: the definition a reload swapped in last. */
  definition(): MockDefinition;
  /** Reads the contract, scenarios and fixtures again (POST /__admin/reload). */
  reload(options?: { reset?: boolean }): Promise<ReloadOutcome>;
  /**
   * Stops accepting, finishes in-flight requests, writes the store (and --coverage-report, and
   * the --record file).
   */
  close(): Promise<void>;
}

/** A mock started here, and how many requests it has received, answered or not (to wait on one). */
export interface StartedServer extends RunningServer {
  readonly requestsReceived: () => number;
}

/** In-flight requests get this long to finish once a stop is asked; then connections are cut. */
const GRACE_MS = 700;

/** Stops accepting, lets in-flight requests finish (within the grace period), writes the store. */
async function closeGracefully(http: HttpServer, state: MockState): Promise<void> {
  const { server } = http;
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
  server.closeIdleConnections();
  // Keep-alive connections that go idle after their last answer, and requests slower than the
  // grace period (a slow scenario), are cut so that a stop never takes more than about a second.
  const timer = setTimeout(() => {
    http.closeAllConnections();
  }, GRACE_MS);
  try {
    await closed;
  } finally {
    clearTimeout(timer);
    http.dispose();
  }
  await state.close();
}

/** Writes the whole suite's coverage report (--coverage-report), once no answer can come. */
async function writeCoverageReport(
  path: string,
  contract: Contract,
  state: MockState,
): Promise<void> {
  const report = reportCoverage(
    contract.operations.operations,
    await state.coverage({ suite: true }),
  );
  // The config let only a path with a format's extension through.
  const format = coverageFormatOfFile(path) ?? 'json';
  await writeFileAtomically(path, [Buffer.from(formatCoverage(report, format))]);
}

function listenError(error: unknown, config: Config): Error {
  const code = isRecord(error) ? error.code : undefined;
  if (code === 'EADDRINUSE') {
    return new StartError(
      `port ${config.port} on ${config.host} is already in use (choose another with --port)`,
    );
  }
  if (code === 'EACCES') return new StartError(`not allowed to listen on port ${config.port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartError(`cannot listen on ${config.host}: no such address on this machine`);
  }
  return error instanceof Error ? error : new StartError(String(error));
}

function listen(server: Server, config: Config): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      reject(listenError(error, config));
    });
    server.listen(config.port, config.host, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new StartError('the server has no TCP address'));
      } else {
        resolve(address);
      }
    });
  });
}

/**
 * Loads the contracts, scenarios and data, builds the app and listens: the only listen(). With
 * --watch, edits of the files are applied while it runs.
 */
export async function startServer(config: Config, logger: Logger): Promise<StartedServer> {
  const { definition, ...deps } = await loadMock(config, logger);
  const control: MockControl = {
    reload: ({ reset }) => reloader.reload({ reset }),
    reloadStatus: () => reloader.status,
  };
  const reloader: Reloader = new Reloader({
    config,
    state: deps.state,
    logger,
    definition,
    buildApp: (next) =>
      createApp({
        ...deps,
        contract: next.contract,
        scenarios: next.scenarios,
        initial: next.initial.pets,
        resources: next.resources,
        control,
      }),
  });
  const http = createHttpServer(reloader.handle, config, logger);
  let address: AddressInfo;
  try {
    address = await listen(http.server, config);
  } catch (error) {
    // Nothing listens: let go of what was opened for it (a --db file's lock and heartbeat).
    http.dispose();
    await Promise.allSettled([deps.state.close(), deps.proxy?.close()]);
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let watcher: Watcher | undefined;
  if (config.watch) {
    const paths = watchedPaths(config, reloader.definition.contract.files);
    watcher = watchFiles(paths, () => {
      // A failed reload is logged and shown by health; the last good version serves.
      reloader.reload().catch(() => undefined);
    });
    logger.info({ watching: paths }, 'watching the contract, scenarios and fixtures for edits');
  }
  return {
    url,
    apiUrl: `${url}${deps.contract.operations.basePath}`,
    port: address.port,
    deps,
    definition: () => reloader.definition,
    reload: (options = {}) => reloader.reload(options),
    requestsReceived: http.requestsReceived,
    close: async () => {
      watcher?.close();
      await closeGracefully(http, deps.state);
      await deps.proxy?.close();
      if (config.coverageReport) {
        await writeCoverageReport(config.coverageReport, reloader.definition.contract, deps.state);
      }
    },
  };
}
