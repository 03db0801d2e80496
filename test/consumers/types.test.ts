// The declarations as TypeScript projects of both module systems read them, with every library
// file checked (skipLibCheck off): the same calls type-check from CommonJS and from ESM, against
// all three entry points. Also: @arethetypeswrong/cli on the tarball, and require() and import()
// giving the same exports on Node 24.
import {
  INSTALL_LIMIT_MS,
  RUN_LIMIT_MS,
  TYPES_PACKAGES,
  createConsumerProject,
  mustRun,
  runCommand,
  type ConsumerProject,
} from './consumer-project.js';

/** Uses each entry point's API; compiled as CommonJS (require) and as ESM (import). */
const USES = `import {
  startMockServer,
  ConfigError,
  type JournalEntry,
  type MockServer,
  type Pet,
} from 'petstore-mock';
import { connectMock, startSharedMock, workerSession, type MockClient } from 'petstore-mock/workers';
import { expect, test, type MockFixtures } from 'petstore-mock/playwright';

export async function uses(): Promise<void> {
  const mock: MockServer = await startMockServer({ seed: 1, count: 2, logLevel: 'silent' });
  const pets = (await (await fetch(\`\${mock.url}/pets\`)).json()) as Pet[];
  const id: number | bigint | undefined = pets[0]?.id;
  await mock.useScenario('slow', { times: 1, session: 'a' });
  const journal: JournalEntry[] = await mock.requests({ session: 'a' });
  await mock.reset('a');
  await mock.close();
  const shared = await startSharedMock({ adminToken: 'x' });
  const client: MockClient = connectMock({ session: workerSession() });
  const entries = await client.requests({ limit: 1 });
  const fixtures: keyof MockFixtures = 'mock';
  console.log(id, journal.length, entries.length, fixtures, shared.adminUrl, new ConfigError('x').name, expect, test);
}

// @ts-expect-error count is a number
void startMockServer({ count: '5' });
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    module: 'nodenext',
    target: 'es2022',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  },
});

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject('types');
  await project.install(TYPES_PACKAGES);
}, INSTALL_LIMIT_MS);

afterAll(() => {
  project.remove();
});

describe('the declarations', () => {
  it.each(['commonjs', 'module'])(
    'type-check the same uses from a "type": "%s" project, library files included',
    async (type) => {
      project.writeFile(`${type}/package.json`, JSON.stringify({ type }));
      project.writeFile(`${type}/tsconfig.json`, TSCONFIG);
      project.writeFile(`${type}/uses.ts`, USES);
      const { code, output } = await runCommand(project.dir, 'npx', ['tsc', '-p', type]);
      expect(output).not.toMatch(/error TS/);
      expect(code).toBe(0);
    },
    RUN_LIMIT_MS,
  );

  it(
    'pass @arethetypeswrong/cli on the tarball (node10, node16 from CJS and ESM, bundler)',
    async () => {
      const { output } = await mustRun(project.dir, 'npx', [
        '--yes',
        '@arethetypeswrong/cli@0.18.5',
        project.tarball,
      ]);
      expect(output).toContain('No problems found');
    },
    INSTALL_LIMIT_MS,
  );
});

describe('require() and import()', () => {
  it(
    'give the same exports on Node 24, entry by entry',
    async () => {
      const script = `
        const keys = (m) => Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort();
        (async () => {
          for (const entry of ['petstore-mock', 'petstore-mock/workers', 'petstore-mock/playwright']) {
            console.log(JSON.stringify([entry, keys(require(entry)), keys(await import(entry))]));
          }
        })();`;
      const { output } = await mustRun(project.dir, 'node', [
        '--input-type=commonjs',
        '-e',
        script,
      ]);
      const lines = output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as [string, string[], string[]]);
      expect(lines).toHaveLength(3);
      for (const [, required, imported] of lines) {
        expect(required.length).toBeGreaterThan(0);
        expect(required).toEqual(imported);
      }
    },
    RUN_LIMIT_MS,
  );
});
