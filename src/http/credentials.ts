import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Security, SecurityScheme } from '../contract/security.js';
import { cookiesOf } from './request-parts.js';

/** The realm of every challenge the mock sends. */
export const REALM = 'petstore';

/** What a request carries that security schemes read. */
export interface Credentials {
  readonly headers: IncomingHttpHeaders;
  /** The query as sent, parsed (a repeated name gives a list): read only for an API key in it. */
  readonly query: () => Readonly<Record<string, unknown>>;
}

/** Why a request did not satisfy an operation's security, and the challenges to send with the 401. */
export interface AuthFailure {
  readonly message: string;
  /** The WWW-Authenticate header: a challenge per scheme the operation accepts. */
  readonly challenge: string;
  /** A credential of the right form whose value --api-keys does not list. */
  readonly invalid: boolean;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares a value with every key in constant time (digests make the lengths equal). */
export function createKeyCheck(keys: readonly string[]): (value: string) => boolean {
  if (keys.length === 0) return () => true;
  const digests = keys.map(digest);
  return (value) => {
    const candidate = digest(value);
    return digests.reduce((found, key) => timingSafeEqual(key, candidate) || found, false);
  };
}

/** The first value of a header or query parameter, as text. */
function single(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** `Authorization: <scheme> <credentials>`, split; undefined for none. */
function authorizationOf(
  headers: IncomingHttpHeaders,
): { scheme: string; value: string } | undefined {
  const header = headers.authorization;
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  return { scheme: match?.[1]?.toLowerCase() ?? '', value: match?.[2]?.trim() ?? '' };
}

/** How a scheme is written in messages: `Authorization: Bearer <token>`, `header X-API-Key`. */
function howToSend(scheme: SecurityScheme): string {
  switch (scheme.kind) {
    case 'bearer':
      return '"Authorization: Bearer <token>"';
    case 'basic':
      return '"Authorization: Basic <base64 of user:password>"';
    case 'http':
      return `"Authorization: ${scheme.scheme} <credentials>"`;
    case 'apiKey':
      return `the ${scheme.in === 'query' ? 'query parameter' : scheme.in} "${scheme.parameter}"`;
  }
}

/** The WWW-Authenticate challenge of a scheme. */
function challengeOf(scheme: SecurityScheme): string {
  switch (scheme.kind) {
    case 'bearer':
      return `Bearer realm="${REALM}"`;
    case 'basic':
      return `Basic realm="${REALM}"`;
    case 'http':
      return `${scheme.scheme.charAt(0).toUpperCase()}${scheme.scheme.slice(1)} realm="${REALM}"`;
    case 'apiKey':
      return `ApiKey realm="${REALM}", in="${scheme.in}", name="${scheme.parameter}"`;
  }
}

/** The WWW-Authenticate of a 401 for this security: a challenge per scheme; undefined for none. */
export function challengeFor(security: Security, invalid = false): string | undefined {
  const challenges = [...new Set(security.flat().map(challengeOf))].map((challenge) =>
    invalid && challenge.startsWith('Bearer ') ? `${challenge}, error="invalid_token"` : challenge,
  );
  return challenges.length === 0 ? undefined : challenges.join(', ');
}

/** Whether a Basic credential is the base64 of `user:password` (RFC 7617). */
function isBasicCredential(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  return Buffer.from(value, 'base64').toString('utf8').includes(':');
}

/** What a scheme finds wrong with a request; undefined when it is satisfied. */
type SchemeCheck = (request: Credentials) => { message: string; invalid: boolean } | undefined;

function checkOf(
  scheme: SecurityScheme,
  isKnown: (value: string) => boolean,
  keyWord: string,
): SchemeCheck {
  // A user and password are credentials; a token or a key is what --api-keys lists.
  const what = scheme.kind === 'basic' || scheme.kind === 'http' ? 'credentials' : keyWord;
  const missing = { message: `Missing ${what}: send it as ${howToSend(scheme)}.`, invalid: false };
  const unknown = { message: `Invalid ${what}.`, invalid: true };
  switch (scheme.kind) {
    case 'bearer':
      return ({ headers }) => {
        const auth = authorizationOf(headers);
        if (!auth) return missing;
        if (auth.scheme !== 'bearer') {
          return {
            message: 'The Authorization header must use the Bearer scheme.',
            invalid: false,
          };
        }
        if (auth.value === '') {
          return { message: `The bearer token is empty: send the ${what}.`, invalid: false };
        }
        return isKnown(auth.value) ? undefined : unknown;
      };
    case 'basic':
      return ({ headers }) => {
        const auth = authorizationOf(headers);
        if (!auth) return missing;
        if (auth.scheme !== 'basic') {
          return { message: 'The Authorization header must use the Basic scheme.', invalid: false };
        }
        if (!isBasicCredential(auth.value)) {
          return {
            message: 'The Basic credentials must be the base64 of "user:password".',
            invalid: false,
          };
        }
        return undefined;
      };
    case 'http':
      return ({ headers }) => {
        const auth = authorizationOf(headers);
        if (!auth) return missing;
        if (auth.scheme !== scheme.scheme.toLowerCase() || auth.value === '') {
          return {
            message: `The Authorization header must use the ${scheme.scheme} scheme, with credentials.`,
            invalid: false,
          };
        }
        return undefined;
      };
    case 'apiKey':
      return ({ headers, query }) => {
        const value =
          scheme.in === 'header'
            ? single(headers[scheme.parameter.toLowerCase()])
            : scheme.in === 'query'
              ? single(query()[scheme.parameter])
              : cookiesOf(single(headers.cookie))[scheme.parameter];
        if (value === undefined || value.trim() === '') return missing;
        return isKnown(value) ? undefined : unknown;
      };
  }
}

/**
 * Checks requests against an operation's security: any one of its requirements (each a set of
 * schemes that must all be satisfied) lets a request through; none at all is a public operation.
 * A credential of the right form is accepted whatever its value, unless `keys` (--api-keys) are
 * given: bearer tokens and API key values must then be one of them. Returns why a request is
 * refused, with the challenges of every scheme the operation accepts; undefined to let it pass.
 */
export function createSecurityCheck(
  keys: readonly string[],
  what = 'API key',
): (security: Security, request: Credentials) => AuthFailure | undefined {
  const isKnown = createKeyCheck(keys);
  const checks = new Map<string, SchemeCheck>();
  const checkFor = (scheme: SecurityScheme): SchemeCheck => {
    let check = checks.get(scheme.name);
    if (!check) {
      check = checkOf(scheme, isKnown, what);
      checks.set(scheme.name, check);
    }
    return check;
  };
  return (security, request) => {
    if (security.length === 0) return undefined;
    let first: { message: string; invalid: boolean } | undefined;
    for (const requirement of security) {
      const problem = requirement.map((scheme) => checkFor(scheme)(request)).find(Boolean);
      if (!problem) return undefined;
      first ??= problem;
    }
    const invalid = first?.invalid === true;
    return {
      message: first?.message ?? `Missing ${what}.`,
      challenge: challengeFor(security, invalid) ?? `Bearer realm="${REALM}"`,
      invalid,
    };
  };
}
