import cors from 'cors';
import type { RequestHandler } from 'express';
import { ANSWER_SOURCE_HEADER } from '../contract/contract-answers.js';

import { ERROR_MESSAGE_HEADER } from './http-error.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for http(s) origins on this machine, whatever the port. */
export function isLocalOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * CORS for browser apps: local origins by default, `*` for any, or an exact list. Preflights are
 * answered here, before auth and validation, and allow the mock's control headers.
 */
export function allowCors(
  allowedOrigins: readonly string[],
  /** The request headers the contract names (header parameters, API keys): allowed too. */
  contractHeaders: readonly string[] = [],
): RequestHandler {
  const allows = (origin: string): boolean =>
    allowedOrigins.length === 0
      ? isLocalOrigin(origin)
      : allowedOrigins.includes('*') || allowedOrigins.includes(origin);
  return cors({
    origin: (origin, callback) => {
      callback(null, origin !== undefined && allows(origin));
    },
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Prefer',
      'X-Mock-Scenario',
      'X-Mock-Session',
      ...contractHeaders,
    ],
    exposedHeaders: [
      'Deprecation',
      'Sunset',
      'Link',
      'X-Request-Id',
      'WWW-Authenticate',
      'Location',
      ANSWER_SOURCE_HEADER,
      ERROR_MESSAGE_HEADER,
    ],
    maxAge: 600,
  });
}
