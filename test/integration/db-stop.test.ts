import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../src/server/start-mock-server.js';
import { openPetStore } from '../../src/state/open-store.js';
import { readStoreFile } from '../../src/state/read-store-file.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { createPetOver, jsonLines, killAllClis, runCli, startCli } from '../helpers/process-cli.js';
import { contract } from '../helpers/test-app.js';

/** Generous bound for process tests on a busy machine (not a timing assertion). */
const SLOW = 60_000;

const TOKEN = 'crash';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-crash-'));
});

afterEach(async () => {
  await killAllClis();
  await rm(dir, { recursive: true, force: true });
});

/** Eight clients create pets until the CLI is stopped by `signal`; the ids acknowledged. */
async function createUntilStopped(db: string, signal: NodeJS.Signals): Promise<number[]> {
  const cli = await startCli(['--port', '0', '--count', '2000', '--db', db]);
  const acknowledged: number[] = [];
  const writers = Array.from({ length: 8 }, async (_, writer) => {
    for (let i = 0; ; i += 1) {
      const id = await createPetOver(cli.url, `w${writer}-${i}`, TOKEN);
      if (id === undefined) return;
      acknowledged.push(id);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 400));
  cli.child.kill(signal);
  await cli.exited;
  await Promise.all(writers);
  return acknowledged;
}

describe('the --db file when the mock stops under create load', () => {
  it(
    'on SIGKILL, is readable with every acknowledged pet',
    async () => {
      const db = join(dir, 'pets.json');
      // No flush, no cleanup: the file and its journal are as the last write left them.
      const acknowledged = await createUntilStopped(db, 'SIGKILL');
      expect(acknowledged.length).toBeGreaterThan(0);

      const checkPet = contract.checkSchema('Pet');
      const stored = await readStoreFile(db, checkPet); // the file with its journal
      const onDisk = new Set(stored?.pets.map((pet) => pet.id));
      expect(acknowledged.filter((id) => !onDisk.has(id))).toEqual([]);
      const reopened = await openPetStore({ initial: storeDataFrom([]), db: db, checkPet });
      expect(reopened.size).toBe(onDisk.size);
      const next = await reopened.create({ name: 'After', categoryId: 1 });
      expect(onDisk.has(next.id)).toBe(false);
    },
    SLOW,
  );

  it(
    'on SIGTERM, holds every acknowledged pet in the file itself, with no journal left',
    async () => {
      const db = join(dir, 'pets.json');
      const acknowledged = await createUntilStopped(db, 'SIGTERM');
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(await readdir(dir)).toEqual(['pets.json']);
      // No journal is left, so this reads the file alone.
      const stored = await readStoreFile(db, contract.checkSchema('Pet'));
      const inFile = new Set(stored?.pets.map((pet) => pet.id));
      expect(acknowledged.filter((id) => !inFile.has(id))).toEqual([]);
    },
    SLOW,
  );
});

describe('one mock per --db file', () => {
  it(
    'refuses to start a second mock on a file another one serves, and takes it after a kill',
    async () => {
      const db = join(dir, 'pets.json');
      const first = await startCli(['--port', '0', '--db', db]);
      const second = await runCli(['--port', '0', '--db', db]);
      expect(second.code).toBe(1);
      // The mock's own pid, as it logs it: on Node 20 the bin runs it as a child.
      const [{ pid } = {}] = jsonLines(first.stdout());
      expect(second.stderr).toContain(`is in use by process ${String(pid)}`);
      first.child.kill('SIGKILL');
      await first.exited;
      // The lock of a killed mock is stale: the next one takes the file over.
      const third = await startCli(['--port', '0', '--db', db]);
      expect(await createPetOver(third.url, 'After', TOKEN)).toBe(31);
    },
    SLOW,
  );
});

describe('the --db file when the mock cannot listen', () => {
  it('lets go of the file: another store opens it at once', async () => {
    const db = join(dir, 'pets.json');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const address = busy.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      await expect(
        startMockServer({ db, port, host: '127.0.0.1', logLevel: 'silent' }),
      ).rejects.toThrow('already in use');
      const store = await openPetStore({
        initial: storeDataFrom([]),
        db: db,
        checkPet: contract.checkSchema('Pet'),
      });
      await store.close();
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
