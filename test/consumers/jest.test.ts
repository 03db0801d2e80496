// The docs' jest recipes from the packed tarball: plain `npx jest` (CommonJS, no config) on
// Node 24 and 20, and one shared mock with a session per worker (petstore-mock/workers).
import { join } from 'node:path';
import { collideEnv, jestCollideFiles } from './collide.js';
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  mustRun,
  recipePackages,
  runCommand,
  type ConsumerProject,
} from './consumer-project.js';

describe('jest with its default config (CommonJS): require("petstore-mock")', () => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await createConsumerProject('jest');
    project.copyExample('jest/pets.test.js', 'pets.test.js');
    await project.install(recipePackages('jest'));
  }, INSTALL_LIMIT_MS);

  afterAll(() => {
    project.remove();
  });

  it.each([24, 20] as const)(
    'passes with plain npx jest on Node %i',
    async (node) => {
      const { output } = await mustRun(project.dir, 'npx', ['jest'], { node });
      expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    },
    RUN_LIMIT_MS,
  );
});

describe('jest workers: one mock for the run, a session per worker', () => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await createConsumerProject('jest-workers');
    project.copyExample('jest-workers', '.');
    await project.install(recipePackages('jest-workers'));
  }, INSTALL_LIMIT_MS);

  afterAll(() => {
    project.remove();
  });

  it(
    'runs the recipe: global setup, connectMock, reset per test',
    async () => {
      const { output } = await mustRun(project.dir, 'npx', ['jest']);
      expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    },
    RUN_LIMIT_MS,
  );

  it(
    'keeps two parallel workers apart, which collide without it',
    async () => {
      for (const [name, content] of Object.entries(jestCollideFiles())) {
        project.writeFile(name, content);
      }
      // A new cache folder for each run: jest runs fast test files in band when its cache has
      // their timings from an earlier run, and in band worker a waits at the barrier for b.
      const argsFor = (env: NodeJS.ProcessEnv): string[] => [
        'jest',
        'collide',
        '--maxWorkers=2',
        `--cacheDirectory=${join(env.COLLIDE_DIR ?? '', 'jest-cache')}`,
      ];
      const sharedEnv = collideEnv(false);
      const shared = await runCommand(project.dir, 'npx', argsFor(sharedEnv), { env: sharedEnv });
      expect(shared.output).toContain('collision:');
      expect(shared.code).toBe(1);

      const isolatedEnv = collideEnv(true);
      const isolated = await mustRun(project.dir, 'npx', argsFor(isolatedEnv), {
        env: isolatedEnv,
      });
      expect(isolated.output).toMatch(/Tests:\s+2 passed, 2 total/);
      expect(isolated.output).toMatch(/isolated: .*"session":"jest-1"/);
      expect(isolated.output).toMatch(/isolated: .*"session":"jest-2"/);
    },
    2 * RUN_LIMIT_MS,
  );
});
