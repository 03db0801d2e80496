// ioredis loads only for --state-url (5cfb60e): a mock in memory paid 86-96 ms and 12 MiB of RSS
// at every start for a client it never used. Checked in a process of its own, on the build, since
// jest's module registry is not Node's.
import { execFileSync } from 'node:child_process';
import { packageRoot } from '../../src/util/paths.js';

/** Starts a mock in memory in a fresh node, then imports ioredis: whether it was loaded, before and after. */
const PROBE = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/ioredis/'));
const { startMockServer } = await import('./dist/index.js');
const mock = await startMockServer({ port: 0, logLevel: 'silent' });
const before = loaded();
await import('ioredis');
console.log(JSON.stringify({ before, after: loaded() }));
await mock.close();
`;

it('a mock in memory does not load ioredis (and the probe sees it once it is loaded)', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], {
    cwd: packageRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(JSON.parse(out.trim().split('\n').at(-1) ?? '')).toEqual({ before: false, after: true });
}, 60_000);
