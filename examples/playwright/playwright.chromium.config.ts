import { defineConfig } from '@playwright/test';
import config from './playwright.config';

// The recipe in the machine's Chromium (Debian: apt-get install chromium), for where
// `npx playwright install chromium` cannot download Playwright's own browser.
export default defineConfig({
  ...config,
  use: {
    ...config.use,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
