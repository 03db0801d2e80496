import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startMockServer, type MockServer } from '../../src/index.js';
import type { Proxy } from '../../src/proxy/proxy.js';
import { loadFixtures } from '../../src/state/initial-data.js';
import { asPets, somePets } from '../helpers/http-matrix.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';
import { AUTH, contract, createTestApp } from '../helpers/test-app.js';
import { json, proxyTo, scriptedUpstream, type LocalUpstream } from '../helpers/upstream.js';
import { backendOptions } from '../helpers/state-backend.js';

// --record: the pets of the real service's valid answers become a fixtures file that --fixtures
// can start from. The real service here is another mock, on 127.0.0.1.

const BIG_ID = '9007199254740993';
const INT64_MAX = '9223372036854775807';

let dir: string;
let real: MockServer;
let proxy: Proxy | undefined;
const upstreams: LocalUpstream[] = [];

beforeAll(async () => {
  dir = makeTmpDir();
  const pets = somePets(3).map((pet) => JSON.stringify(pet));
  pets.push(`{"id":${BIG_ID},"name":"Big","categoryId":${INT64_MAX},"status":"sold"}`);
  real = await startMockServer({
    ...backendOptions(),
    fixtures: writeTmpFile(dir, 'real.json', `[${pets.join(',')}]`),
  });
});

afterAll(async () => {
  await real.close();
  removeTmpDir(dir);
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
  await real.reset();
});

const checkPet = contract.checkSchema('Pet');

describe('--record FILE', () => {
  it('keeps each pet seen once, by id, int64 exact, in a file --fixtures accepts', async () => {
    const path = join(dir, 'recorded.json');
    proxy = await proxyTo(real.url, { record: path });
    const { app } = await createTestApp({ pets: [], proxy });
    await request(app).get('/v1/pets?limit=2').set(AUTH).expect(200);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get(`/v1/pets/${BIG_ID}`).set(AUTH).expect(200);
    await request(app).post('/v1/pets').set(AUTH).send({ name: 'New', categoryId: 2 }).expect(201);
    await request(app).get('/v1/pets/999').set(AUTH).expect(404);
    await proxy.close();
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(
      `{"id":${BIG_ID},"name":"Big","categoryId":${INT64_MAX},"status":"sold"}`,
    );
    const recorded = loadFixtures(path, checkPet).pets;
    expect(recorded.map((pet) => String(pet.id))).toEqual([
      '1',
      '2',
      '3',
      BIG_ID,
      `${BIG_ID.slice(0, -1)}4`,
    ]);
    expect(recorded.at(-1)).toMatchObject({ name: 'New', categoryId: 2 });
  });

  it('records nothing from an answer that breaks the contract', async () => {
    const path = join(dir, 'none.json');
    const upstream = await scriptedUpstream({
      'GET /pets': json(200, [
        { id: 1, name: 'Rex', categoryId: 1 },
        { id: 2, name: 'Lost', categoryId: 1, status: 'lost' },
      ]),
    });
    upstreams.push(upstream);
    proxy = await proxyTo(upstream.url, { record: path });
    const { app } = await createTestApp({ pets: [], proxy });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await proxy.close();
    expect(readFileSync(path, 'utf8')).toBe('[]\n');
  });

  it('adds to an existing fixtures file, and a mock starts from the result', async () => {
    const path = writeTmpFile(dir, 'existing.json', [{ id: 500, name: 'Kept', categoryId: 9 }]);
    proxy = await proxyTo(real.url, { record: path });
    const { app } = await createTestApp({ pets: [], proxy });
    await request(app).get('/v1/pets/1').set(AUTH).expect(200);
    await proxy.close();
    const started = await startMockServer({ ...backendOptions(), fixtures: path });
    try {
      const res = await fetch(`${started.url}/pets`, { headers: AUTH });
      const names = asPets(await res.json()).map((pet) => pet.name);
      expect(names).toEqual(['pet-1', 'Kept']);
    } finally {
      await started.close();
    }
  });

  it('refuses to start over a file that is not fixtures, and leaves it alone', async () => {
    const path = writeTmpFile(dir, 'notes.json', '{"not": "pets"}');
    await expect(proxyTo(real.url, { record: path })).rejects.toThrow(/--record: .*notes\.json/);
    expect(readFileSync(path, 'utf8')).toBe('{"not": "pets"}');
  });
});
