import { STATUS_CODES, createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type AppDeps } from './app.js';
import type { Config } from './config.js';
import { isRecord } from './contract/openapi-document.js';
import { HttpError } from './http/http-error.js';
import { MAX_HEADER_BYTES } from './http/limits.js';
import { JSON_CONTENT_TYPE } from './http/send-json.js';
import { loadMock, StartError } from './load-mock.js';
import type { PetStore } from './store/pet-store.js';

/** A listening mock. */
export interface RunningServer {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Base address of the pet API, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string;
  readonly port: number;
  /** What the app was built from: contracts, sessions (the default one's store), scenarios. */
  readonly deps: AppDeps;
  /** Stops accepting, finishes in-flight requests, writes the store. */
  close(): Promise<void>;
}

/** A client must send its request line and headers within this time (slowloris). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** ... and its whole request, body included, within this time. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this time. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** What Node's HTTP parser refuses before Express sees it, as a status and Error body. */
function parserError(code: unknown): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(
        431,
        'headers_too_large',
        `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'request_timeout', 'The request was not received in time.');
    default:
      return new HttpError(400, 'bad_request', 'The request is not valid HTTP.');
  }
}

/** Answers requests the parser refused with the same JSON Error body as everything else. */
function answerClientError(error: Error, socket: Socket): void {
  const code = isRecord(error) ? error.code : undefined;
  if (code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const httpError = parserError(code);
  const body = JSON.stringify(httpError.toBody());
  socket.end(
    `HTTP/1.1 ${httpError.status} ${STATUS_CODES[httpError.status] ?? 'Error'}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** In-flight requests get this long to finish once a stop is asked; then connections are cut. */
const GRACE_MS = 700;

/** Stops accepting, lets in-flight requests finish (within the grace period), writes the store. */
async function closeGracefully(server: Server, store: PetStore): Promise<void> {
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
    server.closeAllConnections();
  }, GRACE_MS);
  try {
    await closed;
  } finally {
    clearTimeout(timer);
  }
  await store.close();
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
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  const address = await listen(server, config);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    apiUrl: `${url}${deps.contract.operations.basePath}`,
    port: address.port,
    deps,
    close: () => closeGracefully(server, store),
  };
}
