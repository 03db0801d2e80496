/**
 * The parts of node:http, node:crypto and node:util the mock uses, taken with
 * process.getBuiltinModule instead of `import`. An ES import of a built-in makes Node build its ES
 * module facade, which reads every export, lazy getters included: on Node 24, node:http's load
 * undici (for WebSocket, CloseEvent, MessageEvent), node:crypto's webcrypto and node:util's the
 * worker machinery. That was about 20 ms and 12 MiB of every start (113 internal modules), for
 * parts the mock never uses. Type-only imports of these modules are fine: they leave no import.
 */
export const {
  Agent: HttpAgent,
  STATUS_CODES,
  createServer,
  request,
} = process.getBuiltinModule('node:http');
export const { createHash, randomUUID, timingSafeEqual } = process.getBuiltinModule('node:crypto');
export const { parseArgs, promisify } = process.getBuiltinModule('node:util');

/** node:https (and with it node:tls) only when asked for: proxy mode towards an https service. */
export function nodeHttps(): typeof import('node:https') {
  return process.getBuiltinModule('node:https');
}
