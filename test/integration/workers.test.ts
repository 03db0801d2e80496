// petstore-mock/workers: one shared mock, each worker in its own session over the admin API.
import type { MockServer } from '../../src/index.js';
import { MOCK_ENV, connectMock, startSharedMock, workerSession } from '../../src/workers.js';
import { backendOptions } from '../helpers/state-backend.js';

const AUTH = { Authorization: 'Bearer workers' };
let mock: MockServer;
let saved: Record<string, string | undefined>;

beforeAll(async () => {
  saved = Object.fromEntries(Object.values(MOCK_ENV).map((name) => [name, process.env[name]]));
  mock = await startSharedMock({ ...backendOptions(), adminToken: 'admin-secret' });
});

afterAll(async () => {
  await mock.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
});

async function petNames(client: ReturnType<typeof connectMock>): Promise<string[]> {
  const res = await fetch(`${client.url}/pets?limit=100`, {
    headers: { ...AUTH, ...client.headers },
  });
  return ((await res.json()) as { name: string }[]).map((pet) => pet.name);
}

async function createPet(client: ReturnType<typeof connectMock>, name: string): Promise<void> {
  const res = await fetch(`${client.url}/pets`, {
    method: 'POST',
    headers: { ...AUTH, ...client.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(res.status).toBe(201);
}

describe('workerSession', () => {
  it.each([
    [{ JEST_WORKER_ID: '3' }, 'jest-3'],
    [{ VITEST_POOL_ID: '2', VITEST_WORKER_ID: '9' }, 'vitest-2'],
    [{ TEST_PARALLEL_INDEX: '0', TEST_WORKER_INDEX: '4' }, 'playwright-0'],
  ])('names the session after the runner and its worker: %j', (env, session) => {
    expect(workerSession(env)).toBe(session);
  });

  it('falls back to the process id (node:test runs each file in its own process)', () => {
    expect(workerSession({})).toBe(`pid-${String(process.pid)}`);
  });
});

describe('startSharedMock and connectMock', () => {
  it('publishes the addresses the workers inherit', () => {
    expect(process.env[MOCK_ENV.url]).toBe(mock.url);
    expect(process.env[MOCK_ENV.adminUrl]).toBe(`${mock.origin}/__admin`);
    expect(process.env[MOCK_ENV.adminToken]).toBe('admin-secret');
  });

  it('keeps each worker in its own session: pets, resets and scenarios', async () => {
    const one = connectMock({ env: { ...process.env, JEST_WORKER_ID: '1' } });
    const two = connectMock({ env: { ...process.env, JEST_WORKER_ID: '2' } });
    expect([one.session, two.session]).toEqual(['jest-1', 'jest-2']);
    await Promise.all([one.reset(), two.reset()]);

    await createPet(one, 'Only-one');
    expect(await petNames(one)).toContain('Only-one');
    expect(await petNames(two)).not.toContain('Only-one');

    await two.useScenario('empty-catalogue', { times: 1 });
    expect(await petNames(two)).toEqual([]);
    expect(await petNames(one)).toHaveLength(31);

    await two.reset();
    expect(await petNames(one)).toContain('Only-one');
    await one.reset();
    expect(await petNames(one)).toHaveLength(30);
  });

  it('reads the session journal and clears a scenario', async () => {
    const client = connectMock({ session: 'journal-check' });
    await client.reset();
    await client.useScenario('unauthorized');
    const refused = await fetch(`${client.url}/pets`, { headers: { ...AUTH, ...client.headers } });
    expect(refused.status).toBe(401);
    await client.clearScenario();
    expect(await petNames(client)).toHaveLength(30);
    const [newest, previous] = await client.requests({ limit: 2 });
    expect(newest).toMatchObject({ operationId: 'listPets', status: 200 });
    expect(previous).toMatchObject({ operationId: 'listPets', status: 401 });
  });

  it('says what is wrong: no shared mock, a refused admin call', async () => {
    expect(() => connectMock({ env: {} })).toThrow(/PETSTORE_MOCK_URL is not set/);
    const client = connectMock({ adminToken: 'wrong', session: 'x' });
    await expect(client.reset()).rejects.toThrow(/POST \/reset answered 401/);
    await expect(client.useScenario('no-such-scenario')).rejects.toThrow(/answered 401/);
    const admitted = connectMock({ session: 'x' });
    await expect(admitted.useScenario('no-such-scenario')).rejects.toThrow(/answered 422/);
  });
});
