// The docs' vitest recipes from the packed tarball, on Node 24 (vitest 5 needs Node 22.12+):
// a mock per test file, and one shared mock with a session per worker (petstore-mock/workers).
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

  it(
    'passes the recipe with npx vitest run, no config',
    async () => {
      const { output } = await mustRun(project.dir, 'npx', ['vitest', 'run']);
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
