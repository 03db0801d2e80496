// The docs' vitest recipes from the packed tarball: a mock per test file on Node 24 and 20 (vitest 5
// declares Node 22.12+, and the docs say the recipe passes on 20 all the same), and one shared mock
// with a session per worker (petstore-mock/workers) on Node 24.
import { collideEnv, vitestCollideFiles } from './collide.js';
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  mustRun,
  recipePackages,
  runCommand,
  type ConsumerProject,
} from './consumer-project.js';

describe('vitest: a mock per test file', () => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await createConsumerProject('vitest');
    project.copyExample('vitest/pets.test.ts', 'pets.test.ts');
    await project.install(recipePackages('vitest'));
  }, INSTALL_LIMIT_MS);

  afterAll(() => {
    project.remove();
  });

  it.each([24, 20] as const)(
    'passes the recipe with npx vitest run, no config, on Node %i',
    async (node) => {
      const { output } = await mustRun(project.dir, 'npx', ['vitest', 'run'], { node });
      expect(output).toMatch(/Tests\s+2 passed \(2\)/);
    },
    RUN_LIMIT_MS,
  );
});

describe('vitest workers: one mock for the run, a session per worker', () => {
  let project: ConsumerProject;

  beforeAll(async () => {
    project = await createConsumerProject('vitest-workers');
    project.copyExample('vitest-workers', '.');
    await project.install(recipePackages('vitest-workers'));
  }, INSTALL_LIMIT_MS);

  afterAll(() => {
    project.remove();
  });

  it(
    'runs the recipe: global setup, connectMock, reset per test',
    async () => {
      const { output } = await mustRun(project.dir, 'npx', ['vitest', 'run']);
      expect(output).toMatch(/Tests\s+2 passed \(2\)/);
    },
    RUN_LIMIT_MS,
  );

  it(
    'keeps two parallel workers apart, which collide without it',
    async () => {
      for (const [name, content] of Object.entries(vitestCollideFiles())) {
        project.writeFile(name, content);
      }
      const args = ['vitest', 'run', 'collide', '--maxWorkers=2'];
      const shared = await runCommand(project.dir, 'npx', args, { env: collideEnv(false) });
      expect(shared.output).toContain('collision:');
      expect(shared.code).toBe(1);

      const isolated = await mustRun(project.dir, 'npx', args, { env: collideEnv(true) });
      expect(isolated.output).toMatch(/Tests\s+2 passed \(2\)/);
      expect(isolated.output).toMatch(/isolated: .*"session":"vitest-1"/);
      expect(isolated.output).toMatch(/isolated: .*"session":"vitest-2"/);
    },
    2 * RUN_LIMIT_MS,
  );
});
