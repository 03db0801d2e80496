// How a consumer's jest suite uses the mock in-process: one server for the file, a reset per test.
import { startMockServer, type MockServer, type Pet } from '../../src/index.js';
import { backendOptions } from '../helpers/state-backend.js';

const AUTH = { Authorization: 'Bearer consumer' };
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ ...backendOptions(), seed: 7, count: 30 });
});

afterAll(async () => {
  await mock.close();
});

beforeEach(async () => {
  await mock.reset();
});

async function listPets(headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${mock.url}/pets?limit=100`, { headers: { ...AUTH, ...headers } });
}

describe('startMockServer, as a consumer test suite uses it', () => {
  it('listens on a free port and serves the generated pets', async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(mock.port).toBeGreaterThan(0);
    const res = await listPets();
    expect(res.status).toBe(200);
    expect((await res.json()) as Pet[]).toHaveLength(30);
  });

  it('reset() undoes what a test created', async () => {
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Temp', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect((await (await listPets()).json()) as Pet[]).toHaveLength(31);
    await mock.reset();
    expect((await (await listPets()).json()) as Pet[]).toHaveLength(30);
  });

  it('useScenario() forces answers for the next N matching requests', async () => {
    await mock.useScenario('empty-catalogue', { times: 1 });
    expect(await (await listPets()).json()).toEqual([]);
    expect((await (await listPets()).json()) as Pet[]).toHaveLength(30);
  });

  it('useScenario() until clearScenario(), and unknown names throw', async () => {
    await mock.useScenario('unauthorized');
    expect((await listPets()).status).toBe(401);
    await mock.clearScenario();
    expect((await listPets()).status).toBe(200);
    // An unknown name throws at once, before any promise.
    expect(() => mock.useScenario('no-such-scenario')).toThrow(/unknown scenario/);
  });

  it('scopes controls to a session', async () => {
    await mock.useScenario('unauthorized', { session: 'worker-2' });
    expect((await listPets({ 'X-Mock-Session': 'worker-2' })).status).toBe(401);
    expect((await listPets({ 'X-Mock-Session': 'worker-1' })).status).toBe(200);
  });

  it('requests() returns the journal, newest first', async () => {
    await fetch(`${mock.url}/pets/1`, { headers: AUTH });
    await listPets();
    const [newest, previous] = await mock.requests({ limit: 2 });
    expect(newest?.operationId).toBe('listPets');
    expect(previous?.operationId).toBe('getPet');
  });

  it('coverage() reports what the suite exercised; a reset keeps it, clearCoverage() forgets it', async () => {
    await mock.clearCoverage();
    await listPets();
    await fetch(`${mock.url}/pets/1`, { headers: AUTH });
    await mock.reset();
    expect((await mock.coverage()).summary).toEqual({
      documented: 8,
      covered: 2,
      percent: 25,
      violations: 0,
    });
    expect(await mock.coverage({ format: 'markdown' })).toContain('| getPet | GET |');
    await listPets({ 'X-Mock-Session': 'worker-9' });
    expect((await mock.coverage({ session: 'worker-9' })).summary.covered).toBe(1);
    await mock.clearCoverage('worker-9');
    expect((await mock.coverage({ session: 'worker-9' })).summary.covered).toBe(0);
    expect((await mock.coverage()).summary.covered).toBe(2);
    await mock.clearCoverage();
    expect((await mock.coverage()).summary.covered).toBe(0);
  });

  it('refuses bad options with the CLI checks, naming the option', async () => {
    await expect(startMockServer({ port: 70000 })).rejects.toThrow(/^port: expected an integer/);
    await expect(startMockServer({ proxyStrict: true })).rejects.toThrow(
      'proxyStrict needs proxyTarget',
    );
  });

  it('keeps a list option whole: a key with a comma is one key, not two', async () => {
    const keyed = await startMockServer({ ...backendOptions(), apiKeys: ['a,b'] });
    try {
      const status = async (token: string): Promise<number> =>
        (await fetch(`${keyed.url}/pets`, { headers: { Authorization: `Bearer ${token}` } }))
          .status;
      expect(await status('a,b')).toBe(200);
      expect(await status('a')).toBe(401);
    } finally {
      await keyed.close();
    }
  });

  it.each([
    { given: { seed: 5 }, same: { seed: 5, count: 100 } },
    { given: { count: 3 }, same: { seed: 1, count: 3 } },
  ])('generates from $given as from $same', async ({ given, same }) => {
    const pets = async (options: { seed?: number; count?: number }): Promise<unknown> => {
      const started = await startMockServer({ ...backendOptions(), ...options });
      try {
        const res = await fetch(`${started.url}/pets?limit=100`, { headers: AUTH });
        return await res.json();
      } finally {
        await started.close();
      }
    };
    expect(await pets(given)).toEqual(await pets(same));
  });
});
