import { execFile } from 'node:child_process';
import { readFileSync, statSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SETTING_NAMES, envOf, flagOf } from '../../src/config/settings.js';
import { packageRoot } from '../../src/util/paths.js';
import {
  CLI_PATH,
  freePort,
  jsonLines,
  killAllClis,
  runCli,
  spawnCli,
  startCli,
  stopCli,
  waitForHealth,
  type CliExit,
} from '../helpers/process-cli.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

// Processes start slowly on a loaded machine: generous limits, and no assertion on time.
const SLOW = 30_000;

const AUTH = { Authorization: 'Bearer x' };

const runFile = promisify(execFile);

/** Lines of a stream, without the empty ones. */
function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** An expected failure: non-zero exit, one line on stderr, "petstore-mock:", no stack trace. */
function expectOneLineFailure(exit: CliExit): string {
  expect(exit.code).not.toBe(0);
  expect(exit.code).not.toBeNull();
  const lines = linesOf(exit.stderr);
  expect(lines).toHaveLength(1);
  const [line = ''] = lines;
  expect(line).toMatch(/^petstore-mock:/);
  expect(`${exit.stdout}\n${exit.stderr}`).not.toMatch(/^\s+at /m);
  return line;
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: AUTH });
  const body: unknown = await res.json();
  return { status: res.status, body };
}

afterEach(async () => {
  await killAllClis();
}, SLOW);

afterAll(async () => {
  await killAllClis();
}, SLOW);

describe('the petstore-mock command line', () => {
  it(
    'serves the fixture pets under /v1 of the URL it logs',
    async () => {
      const cli = await startCli(['--port', '0']);
      expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const { status, body } = await getJson(`${cli.url}/pets`);
      expect(status).toBe(200);
      expect(body).toHaveLength(20);
    },
    SLOW,
  );

  it(
    'writes JSON lines to stdout when stdout is not a terminal',
    async () => {
      const cli = await startCli(['--port', '0']);
      await getJson(`${cli.url}/pets`);
      const exit = await stopCli(cli);
      expect(() => jsonLines(exit.stdout)).not.toThrow();
      expect(linesOf(exit.stdout).length).toBeGreaterThan(1);
    },
    SLOW,
  );

  it(
    '--help exits 0 and prints every flag',
    async () => {
      const exit = await runCli(['--help']);
      expect(exit.code).toBe(0);
      for (const name of SETTING_NAMES) {
        expect(exit.stdout).toContain(flagOf(name));
        expect(exit.stdout).toContain(envOf(name));
      }
      expect(exit.stdout).toContain('--help');
      expect(exit.stdout).toContain('--version');
      expect(exit.stderr).toBe('');
    },
    SLOW,
  );

  it(
    '--version exits 0 and prints the version of package.json',
    async () => {
      const manifest: unknown = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
      const version =
        typeof manifest === 'object' && manifest !== null && 'version' in manifest
          ? manifest.version
          : undefined;
      expect(typeof version).toBe('string');
      const exit = await runCli(['--version']);
      expect(exit.code).toBe(0);
      expect(exit.stdout.trim()).toBe(version);
    },
    SLOW,
  );

  it(
    'runs as its own program after every build, as npm bin links and npx run it',
    async () => {
      // `npm run build` rewrites dist/cli.js; npm sets the run bits only when it links the package.
      expect(statSync(CLI_PATH).mode & 0o111).toBe(0o111);
      const dir = makeTmpDir();
      try {
        const link = join(dir, 'petstore-mock');
        symlinkSync(CLI_PATH, link);
        const { stdout } = await runFile(link, ['--version'], { timeout: SLOW });
        expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      } finally {
        removeTmpDir(dir);
      }
    },
    SLOW,
  );

  it(
    'refuses an unknown flag with one line on stderr',
    async () => {
      const line = expectOneLineFailure(await runCli(['--port', '0', '--nope']));
      expect(line).toContain('--nope');
    },
    SLOW,
  );

  it(
    'refuses --port abc with one line on stderr',
    async () => {
      const line = expectOneLineFailure(await runCli(['--port', 'abc']));
      expect(line).toContain('--port');
    },
    SLOW,
  );

  it(
    'refuses a bad PORT in the environment with one line on stderr',
    async () => {
      const line = expectOneLineFailure(await runCli([], { PORT: '70000' }));
      expect(line).toContain('PORT');
    },
    SLOW,
  );

  describe('with files', () => {
    let dir: string;

    beforeEach(() => {
      dir = makeTmpDir();
    });

    afterEach(async () => {
      await killAllClis();
      removeTmpDir(dir);
    }, SLOW);

    it(
      'refuses a bad --fixtures file with one line naming the file and the entry',
      async () => {
        const file = writeTmpFile(dir, 'pets.json', [
          { id: 1, name: 'Bella', categoryId: 3 },
          { id: 2, categoryId: 3 },
        ]);
        const line = expectOneLineFailure(await runCli(['--port', '0', '--fixtures', file]));
        expect(line).toContain(file);
        expect(line).toContain('entry 1');
      },
      SLOW,
    );

    it(
      'refuses a --fixtures file that does not exist with one line',
      async () => {
        const file = join(dir, 'absent.json');
        const line = expectOneLineFailure(await runCli(['--port', '0', '--fixtures', file]));
        expect(line).toContain(file);
      },
      SLOW,
    );

    it(
      'refuses a corrupt --db file with one line naming the file',
      async () => {
        const file = writeTmpFile(dir, 'store.json', 'not json');
        const line = expectOneLineFailure(await runCli(['--port', '0', '--db', file]));
        expect(line).toContain(file);
      },
      SLOW,
    );

    it(
      'keeps pets created with --db across a restart',
      async () => {
        const db = join(dir, 'store.json');
        const first = await startCli(['--port', '0', '--db', db]);
        const created = await fetch(`${first.url}/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Persisted', categoryId: 4, status: 'pending' }),
        });
        expect(created.status).toBe(201);
        const pet: unknown = await created.json();
        expect(pet).toMatchObject({ name: 'Persisted', categoryId: 4, status: 'pending' });
        const id = typeof pet === 'object' && pet !== null && 'id' in pet ? pet.id : undefined;
        expect(typeof id).toBe('number');
        expect((await stopCli(first)).code).toBe(0);

        const second = await startCli(['--port', '0', '--db', db]);
        const { status, body } = await getJson(`${second.url}/pets/${String(id)}`);
        expect(status).toBe(200);
        expect(body).toEqual(pet);
      },
      SLOW,
    );
  });

  it.each([
    {
      what: 'MOCK_ADMIN_TOKEN= (empty)',
      argv: [],
      env: { MOCK_ADMIN_TOKEN: '' },
      names: 'MOCK_ADMIN_TOKEN',
    },
    { what: "--admin-token ''", argv: ['--admin-token', ''], env: {}, names: '--admin-token' },
    {
      what: 'MOCK_API_KEYS= (empty)',
      argv: [],
      env: { MOCK_API_KEYS: '' },
      names: 'MOCK_API_KEYS',
    },
    { what: '--api-keys ,,,', argv: ['--api-keys', ',,,'], env: {}, names: '--api-keys' },
    // Known only once the scenario files are read, and still a bad setting.
    { what: '--scenario nope', argv: ['--scenario', 'nope'], env: {}, names: '--scenario' },
  ])(
    '$what refuses the start with exit code 2 and one line naming it',
    async ({ argv, env, names }) => {
      const exit = await runCli(['--port', '0', ...argv], env);
      const line = expectOneLineFailure(exit);
      expect(exit.code).toBe(2);
      expect(line).toContain(names);
    },
    SLOW,
  );

  describe('with a port in use', () => {
    let blocker: Server | undefined;

    afterEach(async () => {
      await new Promise<void>((resolve) => {
        if (blocker) {
          blocker.close(() => {
            resolve();
          });
        } else resolve();
      });
      blocker = undefined;
    });

    it(
      'exits non-zero with one line mentioning the port',
      async () => {
        const server = createServer();
        blocker = server;
        const port = await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            if (address !== null && typeof address !== 'string') resolve(address.port);
            else reject(new Error('no TCP address'));
          });
        });
        const line = expectOneLineFailure(await runCli(['--port', String(port)]));
        expect(line).toContain(String(port));
      },
      SLOW,
    );
  });

  it(
    'exits 0 on SIGTERM sent as soon as the start line is logged',
    async () => {
      // The start line says the mock is ready, so a stop right after it must be a clean stop.
      // Three processes, since a handler installed after the line loses the race only sometimes.
      const exits = await Promise.all(
        [1, 2, 3].map(async () => stopCli(await startCli(['--port', '0']))),
      );
      for (const exit of exits) {
        expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      }
    },
    SLOW,
  );

  it(
    'exits 0 on SIGTERM after serving requests',
    async () => {
      const cli = await startCli(['--port', '0']);
      expect((await getJson(`${cli.url}/pets`)).status).toBe(200);
      const exit = await stopCli(cli);
      expect(exit.signal).toBeNull();
      expect(exit.code).toBe(0);
      expect(exit.stderr).toBe('');
    },
    SLOW,
  );

  it(
    'serves identical pets from two processes started with --seed 7 --count 30',
    async () => {
      const [one, two] = await Promise.all([
        startCli(['--port', '0', '--seed', '7', '--count', '30']),
        startCli(['--port', '0', '--seed', '7', '--count', '30']),
      ]);
      const [a, b] = await Promise.all(
        [one, two].map(async (cli) => {
          const res = await fetch(`${cli.url}/pets?limit=100`, { headers: AUTH });
          expect(res.status).toBe(200);
          return res.text();
        }),
      );
      expect(a).toBe(b);
      const pets: unknown = JSON.parse(a ?? '');
      expect(pets).toHaveLength(30);
    },
    SLOW,
  );

  it(
    'serves different pets for --seed 7 and --seed 8',
    async () => {
      const [one, two] = await Promise.all([
        startCli(['--port', '0', '--seed', '7', '--count', '30']),
        startCli(['--port', '0', '--seed', '8', '--count', '30']),
      ]);
      const [a, b] = await Promise.all(
        [one, two].map(async (cli) =>
          (await fetch(`${cli.url}/pets?limit=100`, { headers: AUTH })).text(),
        ),
      );
      expect(a).not.toBe(b);
    },
    SLOW,
  );

  it(
    'logs one JSON line per request with id, method, path, operationId, status and duration',
    async () => {
      const cli = await startCli(['--port', '0']);
      const sent = [
        { id: 'cli-list', method: 'GET', path: '/pets?limit=3', auth: true },
        { id: 'cli-get', method: 'GET', path: '/pets/1', auth: true },
        { id: 'cli-create', method: 'POST', path: '/pets', auth: true },
        { id: 'cli-unauthorized', method: 'GET', path: '/pets', auth: false },
      ];
      for (const request of sent) {
        const res = await fetch(`${cli.url}${request.path}`, {
          method: request.method,
          headers: {
            'X-Request-Id': request.id,
            'Content-Type': 'application/json',
            ...(request.auth ? AUTH : {}),
          },
          ...(request.method === 'POST'
            ? { body: JSON.stringify({ name: 'Logged', categoryId: 1 }) }
            : {}),
        });
        await res.arrayBuffer();
      }
      const exit = await stopCli(cli);
      const requests = jsonLines(exit.stdout).filter((line) => line.msg === 'request');
      expect(requests).toHaveLength(sent.length);
      const expected = [
        { requestId: 'cli-list', method: 'GET', operationId: 'listPets', status: 200 },
        { requestId: 'cli-get', method: 'GET', operationId: 'getPet', status: 200 },
        { requestId: 'cli-create', method: 'POST', operationId: 'createPet', status: 201 },
        { requestId: 'cli-unauthorized', method: 'GET', operationId: 'listPets', status: 401 },
      ];
      const paths = ['/v1/pets', '/v1/pets/1', '/v1/pets', '/v1/pets'];
      expected.forEach((fields, i) => {
        const lines = requests.filter((line) => line.requestId === fields.requestId);
        expect(lines).toHaveLength(1);
        const [line] = lines;
        expect(line).toMatchObject({ ...fields, path: paths[i] });
        expect(typeof line?.durationMs).toBe('number');
      });
    },
    SLOW,
  );

  it(
    'logs no request lines with MOCK_LOG_LEVEL=silent',
    async () => {
      // Silent logs no start line either, so the port is chosen here.
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const cli = spawnCli(['--port', String(port)], { MOCK_LOG_LEVEL: 'silent' });
      await waitForHealth(cli, origin);
      for (let i = 0; i < 3; i += 1) {
        const res = await fetch(`${origin}/v1/pets`, { headers: AUTH });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      const exit = await stopCli(cli);
      expect(exit.code).toBe(0);
      expect(exit.stdout).toBe('');
    },
    SLOW,
  );

  it(
    'logs no request lines with --log-level silent, even over MOCK_LOG_LEVEL',
    async () => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const cli = spawnCli(['--port', String(port), '--log-level', 'silent'], {
        MOCK_LOG_LEVEL: 'debug',
      });
      await waitForHealth(cli, origin);
      const res = await fetch(`${origin}/v1/pets`, { headers: AUTH });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const exit = await stopCli(cli);
      expect(exit.stdout).toBe('');
    },
    SLOW,
  );

  it(
    'honours PORT 0 and the other options from the environment',
    async () => {
      const cli = await startCli([], { PORT: '0', MOCK_SEED: '3', MOCK_COUNT: '5' });
      const { status, body } = await getJson(`${cli.url}/pets?limit=100`);
      expect(status).toBe(200);
      expect(body).toHaveLength(5);
      expect(body).toMatchObject([1, 2, 3, 4, 5].map((id) => ({ id })));
    },
    SLOW,
  );
});
