/**
 * The parts of node:http, node:crypto and node:util the mock uses, taken with
 * process.getBuiltinModule instead of `import`: an ES import of a built-in makes Node read every
 * export, lazy getters included, and on Node 24 those load undici (node:http's WebSocket),
 * webcrypto and the worker machinery at every start. Type-only imports leave no import.
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
export function loadHttps(): typeof import('node:https') {
  return process.getBuiltinModule('node:https');
}
