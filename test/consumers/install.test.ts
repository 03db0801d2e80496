// Installing without a registry for the package itself: from the git repository, as the docs
// show (npm clones it, installs its dev dependencies and runs `prepare`, which builds dist/).
// The tarball route is what every other consumer test does.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/util/paths.js';
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  createConsumerProject,
  mustRun,
  type ConsumerProject,
} from './consumer-project.js';

const exec = promisify(execFile);
/** A clone, its full dev install and the build: the slowest install here. */
const GIT_INSTALL_LIMIT_MS = 2 * INSTALL_LIMIT_MS;

let project: ConsumerProject;
let commit: string;

beforeAll(async () => {
  commit = (await exec('git', ['rev-parse', 'HEAD'], { cwd: packageRoot })).stdout.trim();
  project = await createConsumerProject('git-install');
}, RUN_LIMIT_MS);

afterAll(() => {
  project.remove();
});

describe('npm install from the git repository', () => {
  it(
    'builds the package with prepare, and both module systems load it',
    async () => {
      await mustRun(
        project.dir,
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          `git+file://${packageRoot}#${commit}`,
        ],
        { limitMs: GIT_INSTALL_LIMIT_MS },
      );
      const script = `
        const { startMockServer } = require('petstore-mock');
        (async () => {
          const esm = await import('petstore-mock');
          const mock = await esm.startMockServer({ seed: 1, count: 3 });
          const res = await fetch(mock.url + '/pets', { headers: { Authorization: 'Bearer git' } });
          console.log(typeof startMockServer, res.status, (await res.json()).length);
          await mock.close();
        })();`;
      const { output } = await mustRun(project.dir, 'node', [
        '--input-type=commonjs',
        '-e',
        script,
      ]);
      expect(output.trim()).toBe('function 200 3');
      const version = await mustRun(project.dir, 'npx', [
        '--no-install',
        'petstore-mock',
        '--version',
      ]);
      const { version: ours } = JSON.parse(
        readFileSync(join(packageRoot, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(version.output.split('\n')).toContain(ours);
    },
    GIT_INSTALL_LIMIT_MS,
  );
});
