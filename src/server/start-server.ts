import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type AppDeps } from '../api/app.js';
import type { Config } from '../config/load-config.js';
import { createHttpServer, type HttpServer } from './create-http-server.js';
import { isRecord } from '../util/is-record.js';
import { loadMock, StartError } from './load-mock.js';
import { formatCoverage } from '../state/coverage-formats.js';
import { reportCoverage } from '../state/coverage-report.js';
import type { PetStore } from '../state/pet-store.js';
import { writeFileAtomically } from '../util/write-file-atomically.js';

/** A listening mock. */
export interface RunningServer {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Base address of the pet API, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string;
  readonly port: number;
  /** What the app was built from: contracts, sessions (the default one's store), scenarios. */
  readonly deps: AppDeps;
  /**
   * Stops accepting, finishes in-flight requests, writes the store (and --coverage-report, and
   * the --record file).
   */
  close(): Promise<void>;
}

/** In-flight requests get this long to finish once a stop is asked; then connections are cut. */
const GRACE_MS = 700;

/** Stops accepting, lets in-flight requests finish (within the grace period), writes the store. */
async function closeGracefully(http: HttpServer, store: PetStore): Promise<void> {
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
  await store.close();
}

/** Writes the whole suite's coverage report (--coverage-report), once no answer can come. */
async function writeCoverageReport(
  file: NonNullable<Config['coverageReport']>,
  deps: AppDeps,
): Promise<void> {
  const report = reportCoverage(deps.contract.operations.operations, deps.sessions.coverage);
  await writeFileAtomically(file.path, [Buffer.from(formatCoverage(report, file.format))]);
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

/** Loads the contracts, scenarios and data, builds the app and listens: the only listen(). */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const deps = await loadMock(config, logger);
  const app = createApp(deps);
  const store = deps.sessions.default.store;
  const http = createHttpServer(app, config.connections, logger);
  let address: AddressInfo;
  try {
    address = await listen(http.server, config);
  } catch (error) {
    // Nothing listens: let go of what was opened for it (a --db file's lock and heartbeat).
    http.dispose();
    await Promise.allSettled([store.close(), deps.proxy?.close()]);
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    apiUrl: `${url}${deps.contract.operations.basePath}`,
    port: address.port,
    deps,
    close: async () => {
      await closeGracefully(http, store);
      await deps.proxy?.close();
      if (config.coverageReport) await writeCoverageReport(config.coverageReport, deps);
    },
  };
}
