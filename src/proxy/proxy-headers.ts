import type { IncomingHttpHeaders } from 'node:http';
import type { Response } from 'express';

/** How the mock names itself in Via, as an intermediary must (RFC 9110 §7.6.3). */
const VIA = '1.1 petstore-mock';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are never passed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Upstream headers the client does not get. The mock frames and dates the answer itself and keeps
 * its own request id, nosniff and CORS headers. Set-Cookie is withheld: a browser would keep the
 * real service's cookies for the mock's host, which every local app shares, and the contract
 * authenticates with bearer tokens. Server and X-Powered-By are withheld: the answer is the
 * mock's, and the real service's software is not advertised to its clients.
 */
const WITHHELD: ReadonlySet<string> = new Set([
  'content-length',
  'date',
  'x-request-id',
  'x-content-type-options',
  'set-cookie',
  'server',
  'x-powered-by',
]);

function joined(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.join(', ');
}

function withVia(given: string | undefined): string {
  return given === undefined || given.trim() === '' ? VIA : `${given}, ${VIA}`;
}

/**
 * The headers sent to the real service: the client's Authorization and Content-Type, our request
 * id and Via, and what the mock needs to validate the answer (JSON, without content coding).
 * Nothing else of the client's goes: neither hop-by-hop headers nor the mock's own controls
 * (Prefer, X-Mock-Session, X-Mock-Scenario), nor its Host or cookies.
 */
export function forwardedHeaders(
  incoming: IncomingHttpHeaders,
  requestId: string,
  body: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'identity',
    via: withVia(joined(incoming.via)),
  };
  if (incoming.authorization !== undefined) headers.authorization = incoming.authorization;
  if (requestId !== '') headers['x-request-id'] = requestId;
  if (body !== undefined) {
    headers['content-type'] = utf8ContentType(incoming['content-type']);
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

/**
 * The client's Content-Type, unless it names a charset other than UTF-8: the body goes on as the
 * mock decoded it, in UTF-8.
 */
function utf8ContentType(given: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(given ?? '')?.[1]?.toLowerCase();
  return given !== undefined && (charset === undefined || charset === 'utf-8' || charset === 'utf8')
    ? given
    : 'application/json; charset=utf-8';
}

/**
 * Puts the real service's headers on the client's answer, but for hop-by-hop ones (and those its
 * Connection header names), the WITHHELD ones and CORS headers (the mock's own policy stands).
 * Vary is added to the mock's (CORS varies by Origin); Via gets the mock appended. Returns how to
 * put the mock's own headers back, for an answer refused after all.
 */
export function relayAnswerHeaders(res: Response, headers: IncomingHttpHeaders): () => void {
  const named = new Set(
    (joined(headers.connection) ?? '').split(',').map((name) => name.trim().toLowerCase()),
  );
  const previous = new Map<string, ReturnType<Response['getHeader']>>();
  const keep = (name: string): void => {
    if (!previous.has(name)) previous.set(name, res.getHeader(name));
  };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || WITHHELD.has(name)) {
      continue;
    }
    if (name.startsWith('access-control-') || name === 'via') continue;
    keep(name);
    if (name !== 'vary') res.setHeader(name, value);
    else if (typeof value === 'string' && value.trim() !== '') res.vary(value);
  }
  keep('via');
  res.setHeader('Via', withVia(joined(headers.via)));
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
  };
}
