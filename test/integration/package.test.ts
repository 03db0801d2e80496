import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/util/paths.js';

const run = promisify(execFile);
/** Installing from the registry on a busy machine can be slow (not a timing assertion). */
const SLOW = 180_000;

interface PackedFile {
  path: string;
}

let dir: string;
let tarball: string;
let files: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-pack-'));
  // Scripts are skipped: `npm test` has built dist/, and a rebuild would race the other tests.
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
    { cwd: packageRoot },
  );
  const [packed] = JSON.parse(stdout) as { filename: string; files: PackedFile[] }[];
  if (!packed) throw new Error('npm pack reported nothing');
  tarball = join(dir, packed.filename);
  files = packed.files.map((file) => file.path);
  await writeFile(join(dir, 'package.json'), '{"name":"consumer","private":true,"type":"module"}');
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: dir,
  });
}, SLOW);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds what runs, and no sources or tests', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'openapi.yaml',
      'admin-openapi.yaml',
      'scenario.schema.json',
      'fixtures/pets.json',
      'scenarios/not-found.yaml',
      'dist/cli.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/index.cjs',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
      'dist/workers.js',
      'dist/workers.cjs',
      'dist/playwright.js',
      'dist/playwright.cjs',
      'dist/console/index.html',
      'dist/console/console.js',
      'dist/console/console.css',
    ]) {
      expect(files).toContain(needed);
    }
    const stray = files.filter((file) =>
      /^(src|test|bench|scripts|console|docs|\.ci)\//.test(file),
    );
    expect(stray).toEqual([]);
  });

  it(
    'installs and starts with npx petstore-mock; the health endpoint answers',
    async () => {
      // Its own process group: npx runs the bin as a child, and both must stop at the end.
      const child = spawn('npx', ['--no-install', 'petstore-mock', '--port', '0'], {
        cwd: dir,
        detached: true,
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            const found = /"url":"(http:[^"]+)"/.exec(out);
            if (found?.[1] !== undefined) resolve(found[1]);
          });
          child.once('exit', (code) => {
            reject(new Error(`npx petstore-mock exited with ${String(code)}: ${out}`));
          });
        });
        const origin = new URL(url).origin;
        const health = await fetch(`${origin}/__admin/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
        const pets = await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer npx' } });
        expect(pets.status).toBe(200);
        expect(await pets.json()).toHaveLength(20);
        // The QA console ships built: its script is served from the installed package.
        const script = await fetch(`${origin}/__admin/ui/console.js`);
        expect(script.status).toBe(200);
        expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      } finally {
        const exited = new Promise((resolve) => child.once('close', resolve));
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
    },
    SLOW,
  );

  it(
    'is importable as a library: startMockServer from the installed package',
    async () => {
      const script = [
        "import { startMockServer } from 'petstore-mock';",
        'const mock = await startMockServer({ seed: 3, count: 5 });',
        "const res = await fetch(mock.url + '/pets', { headers: { Authorization: 'Bearer lib' } });",
        'console.log(res.status, (await res.json()).length);',
        'await mock.close();',
      ].join('\n');
      const { stdout } = await run('node', ['--input-type=module', '-e', script], { cwd: dir });
      expect(stdout.trim()).toBe('200 5');
    },
    SLOW,
  );

  it(
    'is requirable from CommonJS, with the same exports as the ES module, entry by entry',
    async () => {
      const script = [
        "const { startMockServer } = require('petstore-mock');",
        '(async () => {',
        '  const mock = await startMockServer({ seed: 3, count: 5 });',
        "  const res = await fetch(mock.url + '/pets', { headers: { Authorization: 'Bearer cjs' } });",
        '  console.log(res.status, (await res.json()).length);',
        '  await mock.close();',
        '})();',
      ].join('\n');
      const { stdout } = await run('node', ['--input-type=commonjs', '-e', script], { cwd: dir });
      expect(stdout.trim()).toBe('200 5');

      for (const entry of ['petstore-mock', 'petstore-mock/workers']) {
        const keys =
          "(m) => Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort()";
        const compare = [
          `const keys = ${keys};`,
          `const required = keys(require('${entry}'));`,
          `import('${entry}').then((m) => console.log(JSON.stringify([required, keys(m)])));`,
        ].join('\n');
        const { stdout: out } = await run('node', ['--input-type=commonjs', '-e', compare], {
          cwd: dir,
        });
        const [required, imported] = JSON.parse(out) as [string[], string[]];
        expect(required.length).toBeGreaterThan(0);
        expect(required).toEqual(imported);
      }
    },
    SLOW,
  );
});
