/**
 * petstore-mock/playwright: Playwright's `test` with a `mock` fixture. Each parallel worker has a
 * session of its own on the shared mock (startSharedMock in the global setup), reset before every
 * test, and the browser's requests to the mock carry that session's X-Mock-Session header.
 */
import { test as base } from '@playwright/test';
import { connectMock, type MockClient } from './workers.js';

/** The fixtures this module adds to Playwright's. */
export interface MockFixtures {
  /** This worker's view of the shared mock; automatic, so every test is isolated. */
  mock: MockClient;
}

export const test = base.extend<MockFixtures>({
  mock: [
    async ({ context }, use, testInfo) => {
      const mock = connectMock({ session: `playwright-${String(testInfo.parallelIndex)}` });
      await mock.reset();
      // Only the mock's requests: the app's own server and any other origin are left alone.
      await context.route(
        (url) => url.origin === mock.origin,
        (route) => route.continue({ headers: { ...route.request().headers(), ...mock.headers } }),
      );
      await use(mock);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
