import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { isRecord } from '../util/is-record.js';

/** A request for the real service, below its base address. */
export interface UpstreamRequest {
  readonly method: string;
  /** Path and query below the base address, as the client sent them: `/pets?limit=3`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/** The real service's answer, read whole. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** The real service could not be asked, or did not answer in time; the message says why. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/** Sends requests to one real service over a pool of connections of its own. */
export interface UpstreamClient {
  /** The base address, e.g. `https://staging.example.com/v1` (no trailing slash). */
  readonly target: string;
  /** The answer, or an UpstreamError; `signal` aborts it (the client went away). */
  send(request: UpstreamRequest, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** Closes the pooled connections. */
  close(): void;
}

export interface UpstreamOptions {
  /** The base address, http: or https: (checked by the config). */
  readonly target: string;
  /** The whole exchange, connection to the last byte of the answer, must fit in this time. */
  readonly timeoutMs: number;
  /** Skip the TLS certificate check (--proxy-insecure). */
  readonly insecure: boolean;
}

/** Answers are read whole to be validated: a bound, so an upstream cannot exhaust memory. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** Connections kept open to the real service at once; further requests wait for one. */
const MAX_SOCKETS = 64;

/** Words for the network errors a user can act on, by Node's error code. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed while sending',
};

/** Why a request failed, in words, from the error's code (never parsed out of its message). */
function reasonOf(error: unknown): string {
  if (error instanceof UpstreamError) return error.message;
  const code = isRecord(error) && typeof error.code === 'string' ? error.code : undefined;
  const known = code === undefined ? undefined : REASONS[code];
  if (known !== undefined) return `${known} (${code ?? ''})`;
  // TLS failures (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID...).
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${message} (${code})`;
}

/** Creates the client of one real service; node:https (and node:tls) load only for an https one. */
export async function createUpstreamClient(options: UpstreamOptions): Promise<UpstreamClient> {
  const base = new URL(options.target);
  const secure = base.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS };
  const https = secure ? await import('node:https') : undefined;
  const agent = https
    ? new https.Agent({ ...agentOptions, rejectUnauthorized: !options.insecure })
    : new HttpAgent(agentOptions);
  const send = https ? https.request : httpRequest;
  const basePath = base.pathname.replace(/\/$/, '');

  return {
    target: `${base.origin}${basePath}`,
    send: (request, signal) =>
      new Promise<UpstreamAnswer>((resolve, reject) => {
        let settled = false;
        // Why we cut the exchange ourselves, if we did: what the error events then say is noise.
        let cause: UpstreamError | undefined;
        const fail = (error: unknown): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(new UpstreamError(reasonOf(cause ?? error)));
        };
        const cut = (reason: string): void => {
          cause = new UpstreamError(reason);
          req.destroy(cause);
        };
        const url = new URL(`${basePath}${request.path}`, base.origin);
        const req = send(url, { method: request.method, headers: request.headers, agent, signal });
        // One deadline for the whole exchange: a service that accepts and never answers, or
        // answers slowly byte by byte, ends as a 502 rather than a hang.
        const timer = setTimeout(() => {
          cut(`no answer within ${options.timeoutMs} ms`);
        }, options.timeoutMs);
        req.once('error', fail);
        req.once('response', (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) cut(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
            else chunks.push(chunk);
          });
          res.once('error', fail);
          res.once('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          });
          // After 'end' this changes nothing; before it, the connection broke mid-answer.
          res.once('close', () => {
            fail(new UpstreamError('connection closed before the answer ended'));
          });
        });
        req.end(request.body);
      }),
    close: () => {
      agent.destroy();
    },
  };
}
