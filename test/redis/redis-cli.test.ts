// The command line on Redis (issue 23, item 2): replicas on one prefix must serve the same initial
// data and contract, or the newcomer refuses to start (exit 2) naming the difference; --db and
// --state-url together are refused the same way.
import { Redis } from 'ioredis';
import { killAllClis, runCli, startCli, stopCli } from '../helpers/process-cli.js';
import { freshPrefix, testRedisUrl } from '../helpers/state-backend.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

/** Processes start slowly on a loaded machine: a generous bound, and no assertion on time. */
const SLOW = 60_000;

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(async () => {
  await killAllClis();
  removeTmpDir(dir);
});

/** The flags of a replica on the run's Redis, under `prefix`. */
function onRedis(prefix: string, ...args: string[]): string[] {
  return ['--port', '0', '--state-url', testRedisUrl(), '--state-prefix', prefix, ...args];
}

/** Starts a replica, waits for its start line, and stops it: the prefix is now claimed. */
async function claim(prefix: string, ...args: string[]): Promise<void> {
  const first = await startCli(onRedis(prefix, ...args));
  expect((await stopCli(first)).code).toBe(0);
}

describe('a replica on a prefix that holds another mock', () => {
  it(
    'starts when it has the same seed and count (a replica joining)',
    async () => {
      const prefix = freshPrefix();
      await claim(prefix, '--seed', '1', '--count', '5');
      const second = await startCli(onRedis(prefix, '--seed', '1', '--count', '5'));
      const res = await fetch(`${second.url}/pets`, { headers: { Authorization: 'Bearer t' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(5);
    },
    SLOW,
  );

  it(
    'refuses another seed with exit 2, naming both',
    async () => {
      const prefix = freshPrefix();
      await claim(prefix, '--seed', '1', '--count', '5');
      const refused = await runCli(onRedis(prefix, '--seed', '2', '--count', '5'));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--state-prefix ${prefix}`);
      expect(refused.stderr).toMatch(
        /initial: it holds seed 1, count 5 .*this mock has seed 2, count 5/,
      );
    },
    SLOW,
  );

  it(
    'refuses other fixtures with exit 2, naming both files',
    async () => {
      const prefix = freshPrefix();
      const one = writeTmpFile(dir, 'one.json', [{ id: 1, name: 'One', categoryId: 1 }]);
      const two = writeTmpFile(dir, 'two.json', [{ id: 1, name: 'Two', categoryId: 1 }]);
      await claim(prefix, '--fixtures', one);
      const refused = await runCli(onRedis(prefix, '--fixtures', two));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`initial: it holds fixtures ${one}`);
      expect(refused.stderr).toContain(`this mock has fixtures ${two}`);
    },
    SLOW,
  );

  it(
    'refuses another contract with exit 2, naming it',
    async () => {
      const prefix = freshPrefix();
      // The contract ships with the package: another one on the prefix is another version's.
      const redis = new Redis(testRedisUrl());
      try {
        await redis.hset(`${prefix}meta`, 'contract', 'sha256 0123456789abcdef');
      } finally {
        redis.disconnect();
      }
      const refused = await runCli(onRedis(prefix));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /contract: it holds sha256 0123456789abcdef, this mock has sha256 [0-9a-f]{16}/,
      );
    },
    SLOW,
  );
});

describe('--db with --state-url', () => {
  it(
    'is refused with exit 2, naming both, whether flags or variables',
    async () => {
      const db = `${dir}/pets.json`;
      const flags = await runCli(onRedis(freshPrefix(), '--db', db));
      expect(flags.code).toBe(2);
      expect(flags.stderr).toMatch(/--db cannot be combined with --state-url/);
      const variables = await runCli(['--port', '0'], {
        MOCK_DB: db,
        MOCK_STATE_URL: testRedisUrl(),
      });
      expect(variables.code).toBe(2);
      expect(variables.stderr).toMatch(/MOCK_DB cannot be combined with MOCK_STATE_URL/);
    },
    SLOW,
  );
});
