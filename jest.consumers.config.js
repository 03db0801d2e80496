// `npm run test:consumers`: the package as other projects use it, from the packed tarball, with
// test runners installed from the registry (test/consumers/). Slow, so not part of `npm test`.
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  testMatch: ['<rootDir>/test/consumers/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
