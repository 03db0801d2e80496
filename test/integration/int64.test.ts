import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { openPetStore } from '../../src/state/open-store.js';
import { lockPathOf } from '../../src/state/store-lock.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { AUTH, contract, createTestApp } from '../helpers/test-app.js';
import { itOnMemory } from '../helpers/state-backend.js';

const ABOVE_2_53 = '9007199254740993';
const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

function post(body: string) {
  return { body, headers: { ...AUTH, 'Content-Type': 'application/json' } };
}

describe('int64 values keep their exact digits (ids and categoryId)', () => {
  it('serves a stored id above 2^53 byte-exactly in list and get, and only for that id', async () => {
    const { app } = await createTestApp({
      pets: [{ id: BigInt(ABOVE_2_53), name: 'Big', categoryId: BigInt(INT64_MAX) }],
    });
    const list = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(list.text).toBe(`[{"id":${ABOVE_2_53},"name":"Big","categoryId":${INT64_MAX}}]`);
    const got = await request(app).get(`/v1/pets/${ABOVE_2_53}`).set(AUTH).expect(200);
    expect(got.text).toBe(`{"id":${ABOVE_2_53},"name":"Big","categoryId":${INT64_MAX}}`);
    // 9007199254740992 is the same JavaScript number, but not the same int64.
    await request(app).get('/v1/pets/9007199254740992').set(AUTH).expect(404);
  });

  it.each([ABOVE_2_53, INT64_MAX, INT64_MIN])(
    'round-trips categoryId %s through create, get and list',
    async (categoryId) => {
      const { app } = await createTestApp({ pets: [] });
      const { body, headers } = post(`{"name":"Rex","categoryId":${categoryId}}`);
      const created = await request(app).post('/v1/pets').set(headers).send(body).expect(201);
      expect(created.text).toBe(`{"id":1,"name":"Rex","categoryId":${categoryId}}`);
      const got = await request(app).get('/v1/pets/1').set(AUTH).expect(200);
      expect(got.text).toBe(created.text);
      const list = await request(app).get('/v1/pets').set(AUTH).expect(200);
      expect(list.text).toBe(`[${created.text}]`);
    },
  );

  it('assigns the next id after a stored id above 2^53 exactly', async () => {
    const { app } = await createTestApp({
      pets: [{ id: BigInt(ABOVE_2_53), name: 'Big', categoryId: 1 }],
    });
    const { body, headers } = post('{"name":"Next","categoryId":1}');
    const created = await request(app).post('/v1/pets').set(headers).send(body).expect(201);
    expect(created.text).toContain('"id":9007199254740994,');
    await request(app).get('/v1/pets/9007199254740994').set(AUTH).expect(200);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '99999999999999999999', '1e20'])(
    'refuses categoryId %s (outside int64) with 400 and stores nothing',
    async (categoryId) => {
      const { app, state } = await createTestApp({ pets: [] });
      const { body, headers } = post(`{"name":"Rex","categoryId":${categoryId}}`);
      const res = await request(app).post('/v1/pets').set(headers).send(body).expect(400);
      expect(res.body).toEqual({
        code: 'bad_request',
        message: expect.stringContaining('categoryId') as unknown,
        status: 400,
      });
      expect(await state.petCount()).toBe(0);
    },
  );

  it.each(['9223372036854775808', '-9223372036854775809'])(
    'refuses petId %s (outside int64) with 400',
    async (petId) => {
      const { app } = await createTestApp();
      const res = await request(app).get(`/v1/pets/${petId}`).set(AUTH).expect(400);
      expect(res.body).toMatchObject({ code: 'bad_request', status: 400 });
      expect((res.body as { message: string }).message).toContain('petId');
    },
  );

  itOnMemory('writes and reopens a --db file: the file backend itself')(
    'keeps int64 digits in the --db file and across a reopen',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'petstore-int64-'));
      try {
        const db = join(dir, 'pets.json');
        const checkPet = contract.checkSchema('Pet');
        const initial = storeDataFrom([]);
        const first = await openPetStore({ initial, db, checkPet });
        const pet = await first.create({ name: 'Rex', categoryId: BigInt(INT64_MAX) });
        // Reopening reads the create from the journal and writes the file whole. (The first store is
        // left as a crash leaves it: its lock is what another process could take over at once.)
        await rm(lockPathOf(db));
        const second = await openPetStore({ initial, db, checkPet });
        expect(await readFile(db, 'utf8')).toContain(`"categoryId":${INT64_MAX}`);
        expect(second.get(pet.id)).toEqual({ id: 1, name: 'Rex', categoryId: BigInt(INT64_MAX) });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
