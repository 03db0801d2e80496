import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { globalSetup: './global-setup.ts' }, // one mock for the whole run
});
