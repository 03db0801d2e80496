// `npm run test:browser`: the QA console (/__admin/ui) in a real browser, Debian's Chromium at
// /usr/bin/chromium driven by playwright-core (never a downloaded browser). Not part of `npm test`,
// which runs on machines without Chromium; .ci/run installs it and runs this.
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
  testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60_000,
};
