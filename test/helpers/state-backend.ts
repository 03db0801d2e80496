/**
 * Which state backend the shared tests run on. jest runs them twice (jest.config.js): in the
 * `memory` project, and in the `redis` project, whose global setup starts one redis-server for the
 * run (test/helpers/redis-server.ts) and whose setup file names the backend. On Redis each
 * app or mock gets a prefix of its own, so tests never share data.
 */
import { randomUUID } from 'node:crypto';
import type { MockServerOptions } from '../../src/index.js';
import { REDIS_URL_VARIABLE } from './redis-server.js';

/** Set by the redis project's setup file (jest sets it per test file, not for the whole run). */
export const BACKEND_VARIABLE = 'PETSTORE_TEST_STATE';

export type TestBackend = 'memory' | 'redis';

/** The backend of this test file's project. */
export const testBackend: TestBackend =
  process.env[BACKEND_VARIABLE] === 'redis' ? 'redis' : 'memory';

/**
 * How long a call to Redis may take in the shared tests: longer than the default, so a machine
 * busy with other test files never turns a slow answer into a 503 the test did not ask for.
 */
export const TEST_STATE_TIMEOUT_MS = 30_000;

/** The run's redis-server (only on the redis project). */
export function testRedisUrl(): string {
  const url = process.env[REDIS_URL_VARIABLE];
  if (url === undefined || url === '') {
    throw new Error(`${REDIS_URL_VARIABLE} is not set: run the tests through jest's redis project`);
  }
  return url;
}

/**
 * A key prefix no other app of the run uses. Random: a jest worker runs many files, each with a
 * fresh copy of this module, so neither the process id nor a count would do.
 */
export function freshPrefix(): string {
  return `petstore-test:${randomUUID()}:`;
}

/**
 * The options that put an in-process mock (startMockServer) on this file's backend: on Redis the
 * run's server and a fresh prefix; nothing on memory.
 */
export function backendOptions(): Pick<
  MockServerOptions,
  'stateUrl' | 'statePrefix' | 'stateTimeout'
> {
  if (testBackend === 'memory') return {};
  return {
    stateUrl: testRedisUrl(),
    statePrefix: freshPrefix(),
    stateTimeout: TEST_STATE_TIMEOUT_MS,
  };
}

/**
 * `it` on the memory backend, skipped on Redis: for a test of the memory or file backend's own
 * workings. `reason` says which, so the skip explains itself where it is written.
 */
export function itOnMemory(reason: string): jest.It {
  if (reason.trim() === '') throw new Error('itOnMemory: say why the test is memory-only');
  return testBackend === 'memory' ? it : it.skip;
}

/** `it` on Redis, skipped on memory: for a promise only Redis makes. `reason` says which. */
export function itOnRedis(reason: string): jest.It {
  if (reason.trim() === '') throw new Error('itOnRedis: say why the test is Redis-only');
  return testBackend === 'redis' ? it : it.skip;
}
