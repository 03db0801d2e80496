// The docs' node:test recipe from the packed tarball: an ES module, `node --test`, no runner
// to install, on Node 24 and 20.
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  mustRun,
  recipePackages,
  type ConsumerProject,
} from './consumer-project.js';

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject('node-test');
  project.copyExample('node-test/pets.test.mjs', 'pets.test.mjs');
  await project.install(recipePackages('node-test'));
}, INSTALL_LIMIT_MS);

afterAll(() => {
  project.remove();
});

describe('node:test, import from an ES module', () => {
  it.each([24, 20] as const)(
    'passes with node --test on Node %i',
    async (node) => {
      const { output } = await mustRun(project.dir, 'node', ['--test'], { node });
      expect(output).toMatch(/^[#ℹ] pass 2$/m);
      expect(output).toMatch(/^[#ℹ] fail 0$/m);
    },
    RUN_LIMIT_MS,
  );
});
