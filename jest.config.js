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
  // A bound on a hung test, not a measure: on a shared 2-core machine an app build and a request
  // can take more than jest's default 5 s (performance is measured by npm run bench).
  testTimeout: 20_000,
};

/**
 * The tests that run on both backends: those whose outcome rests on what the state keeps or
 * answers (pets created, read and listed, ids and int64 digits through the store, sessions,
 * resets, scenario switches and their counts, the journal, coverage, budgets, the MockState
 * contract, the library and workers over one shared mock). A test in them that is about the memory
 * or file backend itself is marked itOnMemory(reason).
 */
const SHARED = [
  'test/integration/admin',
  'test/integration/budgets',
  'test/integration/coverage',
  'test/integration/create-pet',
  // Scenario switches with a count (`times`), faulted calls journaled with status null.
  'test/integration/faults',
  'test/integration/get-pet',
  // 1,000 concurrent creates: distinct ids from the backend's counter.
  'test/integration/hardening',
  'test/integration/int64',
  'test/integration/library',
  'test/integration/list-pets',
  'test/integration/mock-state',
  // Items of a contract's resources through HTTP: created, listed, nested, per session, reset.
  'test/integration/resources',
  // The items of a contract's resources: seeds, made keys, budgets, sessions, int64 keys.
  'test/integration/mock-state-items',
  // The journal's violations and the coverage of relayed answers (brokeContract) in the state.
  'test/integration/proxy',
  // Pets of another contract's shape stored whole (a writeOnly field kept, left out of answers).
  'test/integration/rich-contract',
  'test/integration/scenarios',
  'test/integration/sessions',
  'test/integration/workers',
  // Any valid NewPet round-trips through the store byte for byte; sessions in mixed sequences.
  'test/property/contract-fuzz',
];
// Memory only, each for its reason:
//   test/unit/*                        units of the memory and file backends, and leaves
//   cli, coverage-cli, shutdown        CLI processes on the default state (Redis CLIs: test/redis/)
//   db-stop                            the --db file and its lock
//   docs, package                      the docs' examples and the packed package, as users run them
//   requests-received                  the HTTP server alone: no state
//   metrics, reload-redis              start a redis-server of their own for what they check on it
// Checks made before a request reaches the state, or about HTTP alone; the state only counts
// the pets afterwards ("creates nothing"), or is the probe, never what is checked:
//   auth, bad-input, order-of-checks   refusals (401, 400, 404, 405, 406, 413) before any handler
//   cors-and-headers, logging          CORS and response headers; the request log
//   connections, console, mounted      sockets and timeouts; the console's static files; mounting
//   response-validation                the validator stopping planted pets (planted unchecked)
//   proxy-record, proxy-unreachable    the --record file; the 502s of a real service out of reach

/** @type {import('jest').Config} */
export default {
  // Both cores: the tests own their data and ports, so files run side by side (jest's default
  // on 2 cores is one worker).
  maxWorkers: 2,
  // Here, not in `common`: jest reads testTimeout from the run's config, not a project's.
  testTimeout: common.testTimeout,
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
