// ESM throughout (lowdb and faker ship ESM only): ts-jest compiles to ESM and jest runs it
// under node --experimental-vm-modules (see the test:unit script).
//
// Two projects, one run: `memory` runs every test on the in-process state (as a user gets it by
// default); `redis` runs the shared suite again on Redis (one redis-server for the run, a prefix
// per app: test/helpers/state-backend.ts), plus the Redis-only tests of test/redis/.

/** What both projects share. */
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};

/**
 * The tests that run on both backends: every test of the mock's behaviour built over
 * createTestApp or startMockServer, and the MockState contract. A test in them that is about the
 * memory or file backend itself is marked itOnMemory(reason).
 */
const SHARED = [
  'test/integration/admin',
  'test/integration/auth',
  'test/integration/bad-input',
  'test/integration/budgets',
  'test/integration/connections',
  'test/integration/console',
  'test/integration/cors-and-headers',
  'test/integration/coverage',
  'test/integration/create-pet',
  'test/integration/faults',
  'test/integration/get-pet',
  'test/integration/hardening',
  'test/integration/int64',
  'test/integration/library',
  'test/integration/list-pets',
  'test/integration/logging',
  'test/integration/mock-state',
  'test/integration/mounted',
  'test/integration/order-of-checks',
  'test/integration/proxy',
  'test/integration/proxy-record',
  'test/integration/proxy-unreachable',
  'test/integration/response-validation',
  'test/integration/rich-contract',
  'test/integration/scenarios',
  'test/integration/sessions',
  'test/integration/workers',
  'test/property/contract-fuzz',
];
// Memory only, each for its reason:
//   test/unit/*                        units of the memory and file backends, and leaves
//   cli, coverage-cli, shutdown        CLI processes on the default state (Redis CLIs: test/redis/)
//   db-stop                            the --db file and its lock
//   docs, package                      the docs' examples and the packed package, as users run them
//   requests-received                  the HTTP server alone: no state

/** @type {import('jest').Config} */
export default {
  projects: [
    {
      ...common,
      displayName: 'memory',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      // The consumer projects install from the registry: `npm run test:consumers`
      // (jest.consumers.config.js); the browser tests need Chromium: `npm run test:browser`
      // (jest.browser.config.js). test/redis/ runs in the redis project.
      testPathIgnorePatterns: [
        '/node_modules/',
        '<rootDir>/test/consumers/',
        '<rootDir>/test/browser/',
        '<rootDir>/test/redis/',
      ],
    },
    {
      ...common,
      displayName: 'redis',
      testMatch: [
        ...SHARED.map((path) => `<rootDir>/${path}.test.ts`),
        '<rootDir>/test/redis/**/*.test.ts',
      ],
      globalSetup: '<rootDir>/test/helpers/redis-server.ts',
      globalTeardown: '<rootDir>/test/helpers/redis-global-teardown.ts',
      setupFiles: ['<rootDir>/test/helpers/use-redis-backend.ts'],
    },
  ],
};
