// The docs' Playwright recipe from the packed tarball, against the page in examples/playwright/app
// served locally, in Debian's Chromium through the docs' playwright.chromium.config.ts (never a
// downloaded browser): a shared mock started in the global setup, and petstore-mock/playwright's
// fixture giving each of two workers its own session.
import { existsSync } from 'node:fs';
import { playwrightCollideFiles, collideEnv } from './collide.js';
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  freePort,
  recipePackages,
  runCommand,
  type ConsumerProject,
} from './consumer-project.js';

const CHROMIUM = '/usr/bin/chromium';

let project: ConsumerProject;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  }
  project = await createConsumerProject('playwright');
  // examples/playwright/ holds the docs' files, the config for the machine's Chromium among them.
  project.copyExample('playwright', '.');
  await project.install(recipePackages('playwright'));
}, INSTALL_LIMIT_MS);

afterAll(() => {
  project.remove();
});

async function playwright(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const APP_PORT = String(await freePort());
  return runCommand(
    project.dir,
    'npx',
    [
      'playwright',
      'test',
      '--config',
      'playwright.chromium.config.ts',
      '--reporter',
      'list',
      ...args,
    ],
    { env: { APP_PORT, ...env } },
  );
}

describe('Playwright Test against a page served locally', () => {
  it(
    'passes the recipe: the page lists, adds and shows a scenario from the worker session',
    async () => {
      const run = await playwright([]);
      expect(run.output).toMatch(/3 passed/);
      expect(run.code).toBe(0);
    },
    RUN_LIMIT_MS,
  );

  it(
    'keeps two parallel workers apart, which collide without the fixture',
    async () => {
      for (const [name, content] of Object.entries(playwrightCollideFiles(false))) {
        project.writeFile(name, content);
      }
      const shared = await playwright(['collide'], collideEnv(false));
      expect(shared.output).toContain('collision:');
      expect(shared.code).toBe(1);

      for (const [name, content] of Object.entries(playwrightCollideFiles(true))) {
        project.writeFile(name, content);
      }
      const isolated = await playwright(['collide'], collideEnv(true));
      expect(isolated.output).toMatch(/2 passed/);
      expect(isolated.output.match(/isolated: /g)).toHaveLength(2);
      expect(isolated.code).toBe(0);
    },
    2 * RUN_LIMIT_MS,
  );
});
