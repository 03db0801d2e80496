import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { loadContract } from './contract/load-contract.js';
import { basePathOf } from './contract/operation-index.js';
import { isRecord } from './contract/openapi-document.js';
import { defaultContractPath } from './paths.js';
import { loadInitialData } from './store/initial-data-for.js';
import { openPetStore } from './store/open-store.js';
import type { PetStore } from './store/pet-store.js';

/** A listening mock. */
export interface RunningServer {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Base address of the pet API, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string;
  readonly port: number;
  readonly store: PetStore;
  close(): Promise<void>;
}

/** A start that failed for a reason the user can act on; its message is one line. */
export class StartError extends Error {
  override name = 'StartError';
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

/** Loads the contract and the data, builds the app and listens: the only listen() in the mock. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const contract = loadContract(defaultContractPath);
  const checkPet = contract.checkSchema('Pet');
  const initial = loadInitialData(
    config.seed !== undefined
      ? { kind: 'generated', seed: config.seed, count: config.count ?? 0 }
      : { kind: 'fixtures', path: config.fixturesPath },
    checkPet,
  );
  let store: PetStore;
  try {
    store = await openPetStore({ initial, dbPath: config.dbPath, checkPet });
  } catch (error) {
    throw new StartError(error instanceof Error ? error.message : String(error));
  }
  const app = createApp({
    contract,
    store,
    logger,
    apiKeys: config.apiKeys,
    corsOrigins: config.corsOrigins,
    defaultStatus: config.defaultStatus,
  });
  const server = createServer(app);
  const address = await listen(server, config);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    apiUrl: `${url}${basePathOf(contract.document)}`,
    port: address.port,
    store,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
