import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../src/index.js';
import { sendHeld } from '../helpers/held-request.js';
import { eventually } from '../helpers/raw-socket.js';
import { createPetOver, killAllClis, startCli, stopCli } from '../helpers/process-cli.js';

/** Generous bound for process tests on a busy machine (not a timing assertion). */
const SLOW = 60_000;
/** How long a test waits for something the server must do well before it (not a timing goal). */
const WAIT_MS = 20_000;
/** Creates acknowledged before a stop or kill: the writers are under way. */
const UNDER_LOAD = 20;

const TOKEN = 'shutdown';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-shutdown-'));
});

afterEach(async () => {
  await killAllClis();
  await rm(dir, { recursive: true, force: true });
});

describe('graceful shutdown', () => {
  it(
    'on SIGTERM under write load with --db, exits 0 and loses no acknowledged create',
    async () => {
      const db = join(dir, 'pets.json');
      const cli = await startCli(['--port', '0', '--db', db]);
      const acknowledged: number[] = [];
      // Four writers create pets until the server stops answering.
      const writers = Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; ; i += 1) {
          const id = await createPetOver(cli.url, `w${writer}-${i}`, TOKEN);
          if (id === undefined) return;
          acknowledged.push(id);
        }
      });
      // Stopped under load: once creates are being acknowledged, while the writers go on.
      expect(await eventually(() => acknowledged.length >= UNDER_LOAD, WAIT_MS)).toBe(true);
      const exit = await stopCli(cli);
      await Promise.all(writers);
      expect(exit.code).toBe(0);
      expect(exit.signal).toBeNull();
      expect(acknowledged.length).toBeGreaterThan(0);

      const again = await startCli(['--port', '0', '--db', db]);
      const res = await fetch(`${again.url}/pets?limit=100`, { headers: AUTH });
      expect(res.status).toBe(200);
      for (const id of acknowledged) {
        const got = await fetch(`${again.url}/pets/${id}`, { headers: AUTH });
        expect(got.status).toBe(200);
      }
    },
    SLOW,
  );

  it(
    'finishes a request in flight before exiting',
    async () => {
      const scenarios = join(dir, 'scenarios');
      await mkdir(scenarios);
      await writeFile(
        join(scenarios, 'brief.yaml'),
        'rules:\n  - operations: listPets\n    delay: 300\n',
      );
      const cli = await startCli(['--port', '0', '--scenarios-dir', scenarios]);
      const { answer } = await sendHeld(new URL(cli.url).origin, 'brief', () =>
        fetch(`${cli.url}/pets?limit=2`, { headers: AUTH }),
      );
      const exited = stopCli(cli);
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(2);
      expect((await exited).code).toBe(0);
    },
    SLOW,
  );

  it.each([
    { first: 'SIGTERM', second: 'SIGTERM', code: 143 },
    { first: 'SIGINT', second: 'SIGINT', code: 130 },
    { first: 'SIGTERM', second: 'SIGINT', code: 130 },
    { first: 'SIGINT', second: 'SIGTERM', code: 143 },
  ] as const)(
    'exits at once on a second signal ($first, then $second: exit $code, 128 + its number)',
    async ({ first, second, code }) => {
      const cli = await startCli(['--port', '0']);
      // A request held open by a slow scenario keeps the first stop waiting for its grace period.
      await sendHeld(new URL(cli.url).origin, 'timeout', () =>
        fetch(`${cli.url}/pets`, { headers: AUTH }),
      );
      cli.child.kill(first);
      // Sent together, two signals could merge (the same one) or swap (the kernel delivers the
      // lower number first): the second goes once the first is being handled.
      while (!cli.stdout().includes('"msg":"stopping"')) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      cli.child.kill(second);
      const exit = await cli.exited;
      expect(exit.code).toBe(code);
    },
    SLOW,
  );

  it(
    'after SIGKILL under write load with --db, a restart has every acknowledged pet',
    async () => {
      const db = join(dir, 'pets.json');
      const cli = await startCli(['--port', '0', '--db', db]);
      const acknowledged: number[] = [];
      const writers = Array.from({ length: 8 }, async (_, writer) => {
        for (let i = 0; ; i += 1) {
          const id = await createPetOver(cli.url, `k${writer}-${i}`, TOKEN);
          if (id === undefined) return;
          acknowledged.push(id);
        }
      });
      expect(await eventually(() => acknowledged.length >= UNDER_LOAD, WAIT_MS)).toBe(true);
      cli.child.kill('SIGKILL');
      const exit = await cli.exited;
      await Promise.all(writers);
      expect(exit.signal).toBe('SIGKILL');
      expect(acknowledged.length).toBeGreaterThan(0);
      // The file is whole JSON (atomic replace), and holds every acknowledged create.
      const again = await startCli(['--port', '0', '--db', db]);
      const missing: number[] = [];
      for (const id of acknowledged) {
        const got = await fetch(`${again.url}/pets/${id}`, { headers: AUTH });
        if (got.status !== 200) missing.push(id);
      }
      expect(missing).toEqual([]);
    },
    SLOW,
  );
});

// In process, the same stop the CLI's signals ask for: RunningServer.close().
describe('the grace period of a stop (0.7 s)', () => {
  /** The held request that a stop must cut. */
  const LONG_MS = 10_000;

  it(
    'lets a request held 300 ms finish, cuts one held 10 s, and is done long before 10 s',
    async () => {
      const scenarios = join(dir, 'scenarios');
      await mkdir(scenarios);
      await writeFile(
        join(scenarios, 'brief.yaml'),
        'rules:\n  - operations: listPets\n    delay: 300\n',
      );
      await writeFile(
        join(scenarios, 'long.yaml'),
        `rules:\n  - operations: getPet\n    delay: ${LONG_MS}\n`,
      );
      const mock = await startMockServer({ scenariosDir: scenarios });
      let closed = false;
      try {
        // The long one first: the brief one has at most its 300 ms left when the stop begins.
        const long = await sendHeld(mock.origin, 'long', () =>
          fetch(`${mock.url}/pets/1`, { headers: AUTH }),
        );
        const brief = await sendHeld(mock.origin, 'brief', () =>
          fetch(`${mock.url}/pets?limit=2`, { headers: AUTH }),
        );
        const stopping = performance.now();
        await mock.close();
        closed = true;
        const stopMs = performance.now() - stopping;
        const res = await brief.answer;
        expect(res.status).toBe(200);
        expect(await res.json()).toHaveLength(2);
        await expect(long.answer).rejects.toThrow();
        // The long request was cut at the grace period: a quarter of its hold leaves the loaded
        // machine seconds of slack, and fails a grace of 2.5 s or more.
        expect(stopMs).toBeLessThan(LONG_MS / 4);
      } finally {
        if (!closed) await mock.close();
      }
    },
    SLOW,
  );
});
