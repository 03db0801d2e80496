import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { createProxy, type Proxy, type ProxySettings } from '../../src/proxy/proxy.js';
import { contract } from './test-app.js';

// Local upstreams for proxy mode: every one listens on 127.0.0.1, port 0; nothing leaves loopback.

/** What a local upstream received. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A listening local upstream. */
export interface LocalUpstream {
  /** Its base address, with the contract's base path: `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  /** Every request it received, in order. */
  readonly received: Received[];
  close(): Promise<void>;
}

/** One answer of a scripted upstream. */
export interface Scripted {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body: string;
}

function listening(server: Server | NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address: AddressInfo | string | null = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no TCP address'));
      else resolve(address.port);
    });
  });
}

function closing(server: Server | NetServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      resolve();
    });
  });
}

/** Keeps what each request carried, then lets `answer` reply. */
function recording(received: Received[], answer: RequestListener): RequestListener {
  return (req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res);
    });
  };
}

async function serve(
  server: Server,
  scheme: 'http' | 'https',
  received: Received[],
): Promise<LocalUpstream> {
  const port = await listening(server);
  return {
    url: `${scheme}://127.0.0.1:${port}/v1`,
    received,
    close: () => {
      server.closeAllConnections();
      return closing(server);
    },
  };
}

/**
 * An upstream that answers each request from a script: by `METHOD path` (path with its query, below
 * /v1), else `default`, else 500.
 */
export function scriptedUpstream(
  script: Readonly<Record<string, Scripted>>,
): Promise<LocalUpstream> {
  const received: Received[] = [];
  const server = createServer(
    recording(received, (req, res) => {
      const path = (req.url ?? '').replace(/^\/v1/, '');
      const answer = script[`${req.method ?? ''} ${path}`] ?? script.default;
      if (!answer) {
        res.writeHead(500).end('no script');
        return;
      }
      res.writeHead(answer.status, { ...answer.headers });
      res.end(answer.body);
    }),
  );
  return serve(server, 'http', received);
}

/** The same scripted upstream over TLS, with the self-signed certificate in test/fixtures/tls. */
export function scriptedTlsUpstream(answer: Scripted): Promise<LocalUpstream> {
  const dir = join(import.meta.dirname, '..', 'fixtures', 'tls');
  const received: Received[] = [];
  const server = createTlsServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    recording(received, (_req, res) => {
      res.writeHead(answer.status, { ...answer.headers });
      res.end(answer.body);
    }),
  );
  return serve(server, 'https', received);
}

/** An upstream that never finishes an answer: `openConnections` counts what the proxy holds. */
export interface SilentUpstream extends LocalUpstream {
  openConnections(): number;
}

/**
 * An upstream that accepts connections and never finishes answering: it sends `start` (nothing by
 * default; say, a status line and headers) and then nothing more.
 */
export async function silentUpstream(start = ''): Promise<SilentUpstream> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      if (start !== '') socket.write(start);
    });
    socket.resume(); // read what is sent; never end the answer
  });
  const port = await listening(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received: [],
    openConnections: () => sockets.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return closing(server);
    },
  };
}

/** A base address on a port nothing listens on: taken from the system, then given back. */
export async function closedPortUrl(): Promise<string> {
  const server = createNetServer();
  const port = await listening(server);
  await closing(server);
  return `http://127.0.0.1:${port}/v1`;
}

/** Proxy mode towards `target`: short timeout, lenient unless told, no recording unless told. */
export function proxyTo(target: string, settings: Partial<ProxySettings> = {}): Promise<Proxy> {
  return createProxy(
    {
      proxyTarget: target,
      proxyTimeout: 5000,
      proxyStrict: false,
      proxyInsecure: false,
      record: undefined,
      ...settings,
    },
    {
      basePath: contract.operations.basePath,
      checkPet: contract.checkSchema('Pet'),
      logger: pino({ level: 'silent' }),
    },
  );
}

/** A JSON answer of a scripted upstream. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Scripted {
  return {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}
