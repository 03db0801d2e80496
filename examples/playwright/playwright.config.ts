import { defineConfig } from '@playwright/test';

const appUrl = `http://127.0.0.1:${process.env.APP_PORT ?? '5173'}`;

export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.ts', // one mock for the whole run
  fullyParallel: true,
  workers: 2, // each worker has its own session on the mock
  use: { baseURL: appUrl },
  webServer: { command: 'node app/serve.mjs', url: appUrl, env: { PORT: new URL(appUrl).port } },
});
