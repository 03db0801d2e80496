// What a --state-prefix holds on Redis (issue 31's mutation survivors 1 and 2): every key the mock
// writes, whatever it does, starts with its prefix; and a replica whose contract differs from the
// prefix's only in a schema is refused, as one with another contract is.
import { Redis } from 'ioredis';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { startMockServer, type MockServer } from '../../src/index.js';
import type { ItemPlace, NewKey } from '../../src/state/item.js';
import type { ItemSeeds } from '../../src/state/item-seeds.js';
import { RedisState } from '../../src/state/redis-state.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { isRecord } from '../../src/util/is-record.js';
import { pollUntil } from '../helpers/poll-until.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';
import { copyMockFiles, editFile, type MockFiles } from '../helpers/reload-files.js';
import { TEST_STATE_TIMEOUT_MS } from '../helpers/state-backend.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

/** A server started on a loaded machine: a generous bound, and no assertion on time. */
const SLOW = 60_000;
const AUTH = { Authorization: 'Bearer state-prefix' };

// A Redis of this file's own: every key in it, and every key written to it, is this file's mocks'.
let redis: TestRedis;
let dir: string;
let files: MockFiles;
const mocks: MockServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, SLOW);

afterAll(async () => {
  await redis.close();
});

beforeEach(() => {
  dir = makeTmpDir();
  files = copyMockFiles(dir);
});

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
  removeTmpDir(dir);
});

async function startOn(prefix: string, more: { contract?: string; maxSessions?: number } = {}) {
  const mock = await startMockServer({
    ...files,
    ...more,
    stateUrl: redis.url,
    statePrefix: prefix,
    stateTimeout: TEST_STATE_TIMEOUT_MS,
  });
  mocks.push(mock);
  return mock;
}

/** A pet API call in a session (the default one without); its status. */
async function send(
  mock: MockServer,
  path: string,
  session?: string,
  body?: Record<string, unknown>,
): Promise<number> {
  const res = await fetch(`${mock.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...AUTH,
      ...(session === undefined ? {} : { 'X-Mock-Session': session }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * The item calls of every kind (issue 30), on a state of the prefix's own: the pet API does not
 * serve items yet, so they are made on the seam.
 */
async function writeItems(url: string, prefix: string): Promise<void> {
  const state = await RedisState.connect({
    settings: {
      stateUrl: url,
      statePrefix: prefix,
      stateTimeout: TEST_STATE_TIMEOUT_MS,
      sessionTtl: 3_600_000,
      maxSessions: 2,
      maxPets: 100,
      maxStoreBytes: 1024 * 1024,
      journalSize: 10,
      journalBytes: 1024 * 1024,
    },
    initial: storeDataFrom([]),
    startupScenario: undefined,
    identity: {},
  });
  const users: ItemPlace = { resource: 'users', parents: [] };
  const orders: ItemPlace = { resource: 'users.orders', parents: ['1'] };
  const seeds: ItemSeeds = {
    itemsOf: (place) => Promise.resolve(place.parents.length === 0 ? [{ id: 1, name: 'a' }] : []),
    firstCounter: () => 2,
    keyOf: () => 'id',
  };
  const made: NewKey = { property: 'id', chosen: undefined, kind: 'integer' };
  try {
    await state.createItem(undefined, seeds, users, { name: 'b' }, made);
    await state.createItem(undefined, seeds, orders, { total: 1 }, made);
    await state.createItem('delta', seeds, users, { name: 'c' }, { property: 'id', chosen: 9 });
    await state.listItems(undefined, seeds, users);
    await state.getItem('delta', seeds, users, '9');
    await state.replaceItem(undefined, seeds, users, '1', { id: 1, name: 'z' });
    await state.deleteItem('delta', seeds, users, '1');
    await state.reset('delta');
    await state.createItem('epsilon', seeds, users, { name: 'd' }, made);
    await state.createItem('zeta', seeds, users, { name: 'e' }, made); // drops the oldest
    await state.resetAll();
  } finally {
    await state.close();
  }
}

/** Every key a Redis command writes, from keyspace events, as they are published. */
async function watchWrittenKeys(url: string): Promise<{ keys: Set<string>; stop(): void }> {
  const control = new Redis(url);
  await control.config('SET', 'notify-keyspace-events', 'EA');
  control.disconnect();
  const subscriber = new Redis(url);
  const keys = new Set<string>();
  subscriber.on('pmessage', (_pattern: string, _channel: string, key: string) => {
    keys.add(key);
  });
  await subscriber.psubscribe('__keyevent@*__:*');
  return {
    keys,
    stop: () => {
      subscriber.disconnect();
    },
  };
}

/** Every key in the Redis, by SCAN (the mock itself never lists keys). */
async function allKeys(url: string): Promise<string[]> {
  const client = new Redis(url);
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', '*', 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  } finally {
    client.disconnect();
  }
}

describe('the keys of a --state-prefix', () => {
  it(
    'are the only keys a mock writes, through creates, reads, sessions, switches, records, reloads and items',
    async () => {
      const prefix = 'prefix-keys:';
      const written = await watchWrittenKeys(redis.url);
      try {
        // Two named sessions at most: a third drops the least recently used.
        const mock = await startOn(prefix, { maxSessions: 2 });
        const pet = { name: 'Keyed', categoryId: 1 };
        expect(await send(mock, '/pets', undefined, { ...pet, status: 'pending' })).toBe(201);
        expect(await send(mock, '/pets', 'alpha', pet)).toBe(201);
        expect(await send(mock, '/pets', 'beta', { ...pet, status: 'sold' })).toBe(201);
        expect(await send(mock, '/pets', 'alpha', { name: 1 })).toBe(400);
        expect(await send(mock, '/pets?status=pending&limit=100')).toBe(200);
        expect(await send(mock, '/pets/1', 'alpha')).toBe(200);
        expect(await send(mock, '/pets/424242', 'beta')).toBe(404);
        expect(await send(mock, '/nowhere', 'alpha')).toBe(404);
        await mock.useScenario('not-found', { session: 'alpha', times: 2 });
        expect(await send(mock, '/pets/1', 'alpha')).toBe(404);
        expect((await mock.requests({ session: 'alpha' })).length).toBeGreaterThan(0);
        expect((await mock.coverage()).operations.length).toBeGreaterThan(0);
        await mock.coverage({ session: 'alpha' });
        expect((await fetch(`${mock.adminUrl}/sessions`)).status).toBe(200);
        expect((await fetch(`${mock.adminUrl}/health`)).status).toBe(200);
        await mock.clearCoverage('alpha');
        await mock.clearCoverage();
        await mock.reset('beta');
        expect(await send(mock, '/pets', 'gamma', pet)).toBe(201); // drops beta

        // A reload: a scenario switched on in two sessions, then gone; fixtures edited.
        const own = join(files.scenariosDir, 'own-empty.yaml');
        writeFileSync(own, 'rules:\n  - operations: listPets\n    status: 200\n    body: []\n');
        await mock.reload();
        await mock.useScenario('own-empty');
        await mock.useScenario('own-empty', { session: 'gamma' });
        unlinkSync(own);
        editFile(files.fixtures, (text) => text.replace('"Bella"', '"Bella the Second"'));
        const reloaded = await mock.reload();
        expect(reloaded.switchedOff).toHaveLength(2);
        await mock.reload({ reset: true });
        expect(await send(mock, '/pets', 'gamma', { ...pet, status: 'available' })).toBe(201);
        mocks.splice(mocks.indexOf(mock), 1);
        await mock.close(); // its last records sent
        await writeItems(redis.url, prefix);

        // Keyspace events come in order: once the marker's is in, every write before it is too.
        const marker = `${prefix}test-marker`;
        const client = new Redis(redis.url);
        await client.set(marker, '1');
        client.disconnect();
        await pollUntil(() => written.keys.has(marker), 'the keyspace event of the marker');

        const outside = [...new Set([...written.keys, ...(await allKeys(redis.url))])].filter(
          (key) => !key.startsWith(prefix),
        );
        expect(outside).toEqual([]);
        // What was written covers every kind of key (redis-scripts.ts lists them).
        expect([...written.keys]).toEqual(
          expect.arrayContaining(
            [
              'meta',
              'sessions',
              'recency',
              'clock',
              'budget',
              'charged',
              'cov',
              'unm',
              'unmi',
              's{}:pets',
              's{}:byid',
              's{}:st:pending',
              's{}:stk',
              's{}:next',
              's{}:added',
              's{}:switch',
              's{}:journal',
              's{}:jbytes',
              's{alpha}:switch',
              's{alpha}:cov',
              's{alpha}:unm',
              's{gamma}:switch',
              's{}:places',
              's{}:items:users',
              's{}:keys:users',
              's{}:items:["users.orders","1"]',
              's{}:keys:["users.orders","1"]',
              's{}:counters',
              's{}:items-added',
              's{delta}:items:users',
            ].map((key) => `${prefix}${key}`),
          ),
        );
      } finally {
        written.stop();
      }
    },
    SLOW,
  );
});

describe('a replica whose contract differs from the prefix’s', () => {
  /** A copy of the contract with one more bound on a pet's name: nothing else differs. */
  function withNameBound(path: string): string {
    const text = readFileSync(path, 'utf8');
    const line = "          description: The animal's name.\n";
    if (!text.includes(line)) throw new Error("NewPet's name has moved in openapi.yaml");
    const bounded = join(dir, 'bounded.yaml');
    writeFileSync(bounded, text.replace(line, `${line}          maxLength: 40\n`));
    return bounded;
  }

  it(
    'is refused when they differ only in a schema, naming both contracts',
    async () => {
      const prefix = 'prefix-contract:';
      await startOn(prefix);
      const bounded = withNameBound(files.contract);
      let refusal: unknown;
      try {
        await startOn(prefix, { contract: bounded });
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ConfigError);
      const message = refusal instanceof Error ? refusal.message : '';
      expect(message).toContain(`--state-prefix ${prefix}`);
      expect(message).toMatch(/contract: it holds sha256 [0-9a-f]{16}, this mock has sha256/);
      // The same contract joins: the refusal is the schema's.
      const joined = await startOn(prefix);
      const res = await fetch(`${joined.url}/pets/1`, { headers: AUTH });
      const body: unknown = await res.json();
      expect(isRecord(body) ? body.name : body).toBe('Bella');
    },
    SLOW,
  );
});
