import type { RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { MAX_HEADER_BYTES } from '../http/limits.js';
import type { ConnectionLimits } from '../config/settings.js';
import { createConnectionGate } from './connection-gate.js';
import { answerOnSocket, connectRefusal, parserRefusal, requireHost } from './refusals.js';

/** A node:http server for the app, and what must stop with it. */
export interface HttpServer {
  readonly server: Server;
  /** Closes every connection at once, those answered outside HTTP (CONNECT) included. */
  readonly closeAllConnections: () => void;
  /** Stops the server's own timers (call once it is closed). */
  readonly dispose: () => void;
  /** Requests received since the server was made (answered or not). */
  readonly requestsReceived: () => number;
}

/**
 * How often Node checks the header and request timeouts: by default every 30 s, which let headers
 * take up to 40 s where 10 s was meant. A tenth of the shorter one, at most once a second.
 */
function timeoutCheckInterval(limits: ConnectionLimits): number {
  const shorter = Math.min(limits.headersTimeout, limits.requestTimeout);
  return Math.max(10, Math.min(1000, Math.floor(shorter / 10)));
}

/**
 * The HTTP server, bounded for any client: connections, pipelined answers, timeouts; and every
 * answer an Error body, also where Node would answer without one or not at all (no Host,
 * CONNECT, a request the parser refuses).
 */
export function createHttpServer(
  app: RequestListener,
  limits: ConnectionLimits,
  logger: Logger,
): HttpServer {
  const gate = createConnectionGate(requireHost(app), limits, logger);
  let received = 0;
  const countReceived: RequestListener = (req, res) => {
    received += 1;
    gate.listener(req, res);
  };
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requireHostHeader: false, // answered by requireHost, with the Error body
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      connectionsCheckingInterval: timeoutCheckInterval(limits),
    },
    countReceived,
  );
  server.maxConnections = limits.maxConnections;
  // A client that half-closes after sending (`socket.end()`, `nc -N`) still gets its answer: by
  // default Node ends the connection as soon as the client's side ends, losing answers not yet
  // written. (An undocumented property of http.Server since Node 0.x, false by default.)
  Object.assign(server, { httpAllowHalfOpen: true });
  server.on('clientError', (error: Error, socket) => {
    const code = 'code' in error ? error.code : undefined;
    // Bytes after a request with `Connection: close` are not processed (RFC 9112 §9.6): Node
    // still answers that request, then closes; answering the parser's error instead cut it off.
    if (code === 'HPE_CLOSED_CONNECTION') return;
    if (code === 'ECONNRESET' || !socket.writable || !gate.mayAnswerRaw(socket)) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, parserRefusal(code), limits.keepAliveTimeout);
  });
  // Without a listener Node closes a CONNECT's connection with no answer at all. Node no longer
  // counts it among its HTTP connections, so a stop must close it here.
  const tunnels = new Set<Duplex>();
  server.on('connect', (_req, socket) => {
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
    answerOnSocket(socket, connectRefusal(), limits.keepAliveTimeout);
  });
  return {
    server,
    closeAllConnections: () => {
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
    },
    dispose: () => {
      gate.close();
    },
    requestsReceived: () => received,
  };
}
