// The docs' ts-jest recipe from the packed tarball: the config `npx ts-jest config:init` writes, a
// one-line tsconfig naming jest's types, and a test file that ts-jest type-checks against our
// declarations.
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  mustRun,
  recipePackages,
  runCommand,
  type ConsumerProject,
} from './consumer-project.js';

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject('ts-jest');
  project.copyExample('ts-jest', '.');
  await project.install(recipePackages('ts-jest'));
}, INSTALL_LIMIT_MS);

afterAll(() => {
  project.remove();
});

describe('ts-jest with its default preset', () => {
  it(
    'type-checks and passes the recipe with npx jest, without a warning',
    async () => {
      const { output } = await mustRun(project.dir, 'npx', ['jest']);
      expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
      expect(output).not.toMatch(/WARN/);
    },
    RUN_LIMIT_MS,
  );

  it(
    'reports a type error in a call to the package (the declarations are used)',
    async () => {
      project.writeFile(
        'wrong.test.ts',
        "import { startMockServer } from 'petstore-mock';\n\ntest('wrong', () => startMockServer({ count: '5' }));\n",
      );
      const { code, output } = await runCommand(project.dir, 'npx', ['jest', 'wrong']);
      expect(code).toBe(1);
      expect(output).toMatch(/TS2322: Type 'string' is not assignable to type 'number'/);
    },
    RUN_LIMIT_MS,
  );
});
