// `npm run test:consumers`: the package as other projects use it, from the packed tarball, with
// test runners installed from the registry (test/consumers/). Slow, so not part of `npm test`.
import base from './jest.config.js';

// The main config is two projects (memory, redis), and jest ignores a testMatch beside `projects`:
// this one is a single project, with their transform.
const [{ testEnvironment, extensionsToTreatAsEsm, moduleNameMapper, transform }] = base.projects;

/** @type {import('jest').Config} */
export default {
  testEnvironment,
  extensionsToTreatAsEsm,
  moduleNameMapper,
  transform,
  testMatch: ['<rootDir>/test/consumers/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
