import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCoverageReport } from '../../src/cli/read-coverage-report.js';
import {
  freePort,
  killAllClis,
  runCli,
  startCli,
  stopCli,
  type RunningCli,
} from '../helpers/process-cli.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';
import { json, scriptedUpstream } from '../helpers/upstream.js';

// Processes start slowly on a loaded machine: generous limits, and no assertion on time.
const SLOW = 60_000;
const ADMIN_TOKEN = 'coverage-admin';
const AUTH = { Authorization: 'Bearer consumer' };

let mock: RunningCli;
let origin: string;
let dir: string;

/** `petstore-mock coverage --url <the mock> --admin-token ... <args>`. */
function coverage(...args: string[]) {
  return runCli(['coverage', '--url', origin, '--admin-token', ADMIN_TOKEN, ...args]);
}

/** A fresh coverage, then one listPets 200: 1 of the 8 documented answers (12.5%). */
async function coverOneOfEight(): Promise<void> {
  const cleared = await fetch(`${origin}/__admin/coverage`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(cleared.status).toBe(204);
  expect((await fetch(`${mock.url}/pets`, { headers: AUTH })).status).toBe(200);
}

beforeAll(async () => {
  dir = makeTmpDir();
  mock = await startCli(['--port', '0', '--admin-token', ADMIN_TOKEN]);
  origin = new URL(mock.url).origin;
}, SLOW);

afterAll(async () => {
  await killAllClis();
  removeTmpDir(dir);
}, SLOW);

describe('petstore-mock coverage: the pipeline gate', () => {
  it(
    'exits 1 under --fail-under, 0 over it; prints the report to stdout, the verdict to stderr',
    async () => {
      await coverOneOfEight();
      const under = await coverage('--fail-under', '50');
      expect(under.code).toBe(1);
      expect(under.stdout).toContain('Contract coverage: 1 of 8 documented answers (13%)');
      expect(under.stderr).toContain('12.5% of documented answers covered, under --fail-under 50%');
      const over = await coverage('--fail-under', '10');
      expect(over.code).toBe(0);
      expect(over.stderr).toBe('');
      const help = await runCli(['coverage', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--fail-under <percent>');
    },
    SLOW,
  );

  it(
    'exits 1 when a --require pair was never answered, naming it',
    async () => {
      await coverOneOfEight();
      const exit = await coverage('--require', 'listPets:200,getPet:404');
      expect(exit.code).toBe(1);
      expect(exit.stderr).toContain('getPet never answered 404');
      expect(exit.stderr).not.toContain('listPets');
      expect((await coverage('--require', 'listPets:200')).code).toBe(0);
    },
    SLOW,
  );

  it(
    'prints every format: markdown names each operation, junit and json read back',
    async () => {
      await coverOneOfEight();
      const markdown = await coverage('--format', 'markdown');
      expect(markdown.code).toBe(0);
      for (const id of ['listPets', 'createPet', 'getPet']) {
        expect(markdown.stdout).toContain(`| ${id} |`);
      }
      const junit = await coverage('--format', 'junit');
      expect(junit.stdout).toContain('tests="8" failures="7"');
      const json = await coverage('--format', 'json', '--session', 'nobody');
      expect(readCoverageReport(JSON.parse(json.stdout)).summary.covered).toBe(0);
    },
    SLOW,
  );

  it(
    'exits 2 when the mock cannot be reached, refuses, or the arguments are bad',
    async () => {
      const port = await freePort();
      const unreachable = await runCli(['coverage', '--url', `http://127.0.0.1:${port}`]);
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr).toMatch(/^petstore-mock coverage: cannot reach the mock/);
      const refused = await runCli(['coverage', '--url', origin]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('401');
      const fromEnv = await runCli(['coverage', '--url', origin], {
        MOCK_ADMIN_TOKEN: ADMIN_TOKEN,
      });
      expect(fromEnv.code).toBe(0);
      for (const args of [
        [],
        ['--url', 'not a url'],
        ['--url', origin, '--fail-under', '101'],
        ['--url', origin, '--format', 'html'],
        ['--url', origin, '--require', 'listPets'],
        ['--url', origin, '--nope'],
      ]) {
        const exit = await runCli(['coverage', ...args]);
        expect({ args, code: exit.code }).toEqual({ args, code: 2 });
      }
      expect((await coverage('--require', 'noSuchOperation:200')).code).toBe(2);
    },
    SLOW,
  );
});

describe('petstore-mock coverage: answers that broke the contract (proxy mode)', () => {
  it(
    'exits 1 with one line saying how many, unless --allow-violations',
    async () => {
      // A real service that drifted: a pet status the contract does not know.
      const upstream = await scriptedUpstream({
        'GET /pets': json(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' }]),
        'GET /pets/1': json(200, { id: 1, name: 'Rex', categoryId: 1 }),
      });
      let proxy: RunningCli | undefined;
      try {
        proxy = await startCli([
          '--port',
          '0',
          '--admin-token',
          ADMIN_TOKEN,
          '--proxy-target',
          upstream.url,
        ]);
        const url = new URL(proxy.url).origin;
        const gate = (...args: string[]) =>
          runCli(['coverage', '--url', url, '--admin-token', ADMIN_TOKEN, ...args]);
        expect((await fetch(`${proxy.url}/pets/1`, { headers: AUTH })).status).toBe(200);
        expect((await gate()).code).toBe(0);
        for (let i = 0; i < 2; i += 1) {
          expect((await fetch(`${proxy.url}/pets`, { headers: AUTH })).status).toBe(200);
        }
        const failed = await gate();
        expect(failed.code).toBe(1);
        expect(failed.stderr.trimEnd().split('\n')).toEqual([
          'petstore-mock coverage: 2 answers broke the contract (GET /__admin/requests names each; --allow-violations passes them)',
        ]);
        expect(failed.stdout.split('\n')[0]).toBe(
          'Contract coverage: 2 of 8 documented answers (25%); 2 answers broke the contract',
        );
        const allowed = await gate('--allow-violations', '--fail-under', '20');
        expect(allowed.code).toBe(0);
        expect(allowed.stderr).toBe('');
        const junit = await gate('--allow-violations', '--format', 'junit');
        expect(junit.stdout).toContain('message="listPets 200: 2 of 2 answers broke the contract"');
        const json = await gate('--allow-violations', '--format', 'json');
        expect(readCoverageReport(JSON.parse(json.stdout)).summary.violations).toBe(2);
        const help = await runCli(['coverage', '--help']);
        expect(help.stdout).toContain('--allow-violations');
      } finally {
        if (proxy) await stopCli(proxy);
        await upstream.close();
      }
    },
    SLOW,
  );
});

describe('--coverage-report: the server writes the report at shutdown', () => {
  it(
    'writes the format its extension names once stopped',
    async () => {
      const file = join(dir, 'coverage.xml');
      const cli = await startCli(['--port', '0', '--coverage-report', file]);
      expect((await fetch(`${cli.url}/pets/1`, { headers: AUTH })).status).toBe(200);
      const exit = await stopCli(cli);
      expect(exit.code).toBe(0);
      const xml = readFileSync(file, 'utf8');
      expect(xml).toContain('tests="8" failures="7"');
      expect(xml).toContain('<testcase classname="getPet" name="GET /pets/{petId} answers 200"/>');
    },
    SLOW,
  );
});
