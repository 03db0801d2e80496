/**
 * A reload on the Redis backend (--state-url), against a real redis-server: the pets created
 * before it stay, the new fixtures serve, and the prefix records what the mock serves now, so a
 * replica started on the edited files joins it and one on the old files is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startMockServer, type MockServer } from '../../src/index.js';
import { isRecord } from '../../src/util/is-record.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';
import { copyMockFiles, editFile, type MockFiles } from '../helpers/reload-files.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

const AUTH = { Authorization: 'Bearer reload-redis' };
const PREFIX = 'reload-test:';

let redis: TestRedis;
let dir: string;
let files: MockFiles;
const mocks: MockServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

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

async function replica(): Promise<MockServer> {
  const mock = await startMockServer({
    ...files,
    stateUrl: redis.url,
    statePrefix: PREFIX,
  });
  mocks.push(mock);
  return mock;
}

async function nameOf(mock: MockServer, id: unknown, session?: string): Promise<unknown> {
  const headers = session === undefined ? AUTH : { ...AUTH, 'X-Mock-Session': session };
  const res = await fetch(`${mock.url}/pets/${String(id)}`, { headers });
  if (res.status !== 200) return `HTTP ${String(res.status)}`;
  const body: unknown = await res.json();
  return isRecord(body) ? body.name : undefined;
}

async function createPet(mock: MockServer, name: string, session?: string): Promise<unknown> {
  const res = await fetch(`${mock.url}/pets`, {
    method: 'POST',
    headers: {
      ...AUTH,
      'Content-Type': 'application/json',
      ...(session === undefined ? {} : { 'X-Mock-Session': session }),
    },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(res.status).toBe(201);
  const pet: unknown = await res.json();
  return isRecord(pet) ? pet.id : undefined;
}

describe('a reload with --state-url', () => {
  it('keeps the pets in Redis, serves the new fixtures, and records the new identity', async () => {
    const mock = await replica();
    const mine = await createPet(mock, 'Kept');
    const theirs = await createPet(mock, 'Theirs', 'worker-1');

    const original = readFileSync(files.fixtures, 'utf8');
    editFile(files.fixtures, (text) => text.replace('"Bella"', '"Bella the Second"'));
    expect(await mock.reload()).toEqual({ changed: ['fixtures'], switchedOff: [], reset: false });

    expect(await nameOf(mock, 1)).toBe('Bella the Second');
    expect(await nameOf(mock, 1, 'worker-1')).toBe('Bella the Second');
    expect(await nameOf(mock, mine)).toBe('Kept');
    expect(await nameOf(mock, theirs, 'worker-1')).toBe('Theirs');

    // A replica started on the edited files shares the prefix, and its pets.
    const joined = await replica();
    expect(await nameOf(joined, 1)).toBe('Bella the Second');
    expect(await nameOf(joined, mine)).toBe('Kept');
    // One started on the old fixtures is refused: the prefix holds the new ones.
    writeFileSync(files.fixtures, original);
    await expect(replica()).rejects.toThrow(/initial/);
  });
});
