// Budgets a client cannot get past (issue 11), through the running mock: 507 store_full with the
// Error body and nothing stored, room again after a reset, and journal entries cut to size.
import { startMockServer, type MockServer, type Pet } from '../../src/index.js';
import { backendOptions } from '../helpers/state-backend.js';

const AUTH = { Authorization: 'Bearer budgets' };
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ ...backendOptions(), maxPets: 2, maxStoreBytes: 1024 * 1024 });
});

afterAll(async () => {
  await mock.close();
});

beforeEach(async () => {
  await mock.reset();
});

function create(name: string, session?: string): Promise<Response> {
  return fetch(`${mock.url}/pets`, {
    method: 'POST',
    headers: {
      ...AUTH,
      'Content-Type': 'application/json',
      ...(session ? { 'X-Mock-Session': session } : {}),
    },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
}

async function count(session?: string): Promise<number> {
  const headers = { ...AUTH, ...(session ? { 'X-Mock-Session': session } : {}) };
  const res = await fetch(`${mock.url}/pets?limit=100`, { headers });
  return ((await res.json()) as Pet[]).length;
}

describe('the store budgets', () => {
  it('answer 507 store_full past --max-pets, store nothing, and use no id', async () => {
    const before = await count();
    expect((await create('one')).status).toBe(201);
    const second = (await (await create('two')).json()) as Pet;
    const refused = await create('three');
    expect(refused.status).toBe(507);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await refused.json()) as { code: string; message: string; status: number };
    expect(body.code).toBe('store_full');
    expect(body.status).toBe(507);
    expect(body.message).toMatch(/--max-pets/);
    expect(await count()).toBe(before + 2);
    await mock.reset();
    const again = (await (await create('again')).json()) as Pet;
    expect(again.id).toBe(Number(second.id) - 1);
  });

  it('count each session on its own for --max-pets', async () => {
    for (const name of ['a', 'b']) expect((await create(name, 'budget-one')).status).toBe(201);
    expect((await create('c', 'budget-one')).status).toBe(507);
    expect((await create('a', 'budget-two')).status).toBe(201);
  });

  it('share --max-store-bytes among sessions: big pets fill it, a reset gives it back', async () => {
    const big = 'x'.repeat(90_000);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i += 1) statuses.push((await create(big, `bytes-${i}`)).status);
    // 1 MiB holds 11 pets of about 90 kB; sessions 12 to 16 are refused.
    expect(statuses.filter((s) => s === 201)).toHaveLength(11);
    expect(statuses.slice(11)).toEqual([507, 507, 507, 507, 507]);
    await fetch(`${mock.adminUrl}/reset`, {
      method: 'POST',
      headers: { 'X-Mock-Session': 'bytes-0' },
    });
    expect((await create(big, 'bytes-15')).status).toBe(201);
  });
});

describe('the journal', () => {
  it('keeps a long path cut to 1,024 characters and marked with …', async () => {
    const res = await fetch(`${mock.url}/pets/${'9'.repeat(15_500)}`, { headers: AUTH });
    expect(res.status).toBe(400);
    const journal = await fetch(`${mock.adminUrl}/requests?limit=1`);
    expect(journal.status).toBe(200);
    const { requests } = (await journal.json()) as {
      requests: { path: string; validationErrors: string[] }[];
    };
    const path = requests[0]?.path ?? '';
    expect(path).toHaveLength(1025);
    expect(path.startsWith('/v1/pets/999')).toBe(true);
    expect(path.endsWith('…')).toBe(true);
    for (const error of requests[0]?.validationErrors ?? [])
      expect(error.length).toBeLessThanOrEqual(513);
  });
});
