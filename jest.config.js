// ESM throughout (lowdb and faker ship ESM only): ts-jest compiles to ESM and jest runs it
// under node --experimental-vm-modules (see the test:unit script).
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The consumer projects install from the registry: `npm run test:consumers` (jest.consumers.config.js);
  // the browser tests need Chromium: `npm run test:browser` (jest.browser.config.js).
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/consumers/',
    '<rootDir>/test/browser/',
  ],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};
