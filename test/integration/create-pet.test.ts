import request from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { asPet, asPets, somePets } from '../helpers/http-matrix.js';

describe('createPet (POST /v1/pets)', () => {
  it('answers 201 with the stored pet and a new id after the largest one (rule 4.2.1)', async () => {
    const { app, state } = await createTestApp({ pets: somePets(5) });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Rex', categoryId: 7, status: 'available' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ id: 6, name: 'Rex', categoryId: 7, status: 'available' });
    expect(await state.petCount()).toBe(6);
  });

  it.each(['latin1', 'utf-16', '"ISO-8859-1"'])(
    'refuses a body in charset %s with 400 unsupported_media_type, storing nothing',
    async (charset) => {
      const { app, state } = await createTestApp({ pets: somePets(2) });
      const res = await request(app)
        .post('/v1/pets')
        .set(AUTH)
        .set('Content-Type', `application/json; charset=${charset}`)
        .send('{"name":"\u00e9","categoryId":1}');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'unsupported_media_type', status: 400 });
      expect(await state.petCount()).toBe(2);
    },
  );

  it('reads a body that says charset=UTF-8 (any case) as UTF-8', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"name":"\u00e9\u{1F436}","categoryId":1}'); // superagent sends text as UTF-8
    expect(res.status).toBe(201);
    expect(asPet(res.body).name).toBe('\u00e9\u{1F436}');
  });

  it('assigns the id after the largest id, even with gaps in the initial data', async () => {
    const { app } = await createTestApp({
      pets: [
        { id: 3, name: 'a', categoryId: 1 },
        { id: 41, name: 'b', categoryId: 1 },
        { id: 12, name: 'c', categoryId: 1 },
      ],
    });
    const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'd', categoryId: 2 });
    expect(res.status).toBe(201);
    expect(asPet(res.body).id).toBe(42);
  });

  it('assigns increasing ids across creates', async () => {
    const { app, state } = await createTestApp({ pets: somePets(3) });
    const ids: number[] = [];
    for (const name of ['one', 'two', 'three']) {
      const res = await request(app).post('/v1/pets').set(AUTH).send({ name, categoryId: 1 });
      expect(res.status).toBe(201);
      ids.push(Number(asPet(res.body).id));
    }
    expect(ids).toEqual([4, 5, 6]);
    expect(await state.petCount()).toBe(6);
  });

  it('starts at id 1 in an empty store', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'x', categoryId: 1 });
    expect(res.status).toBe(201);
    expect(asPet(res.body).id).toBe(1);
  });

  it('makes the pet retrievable with getPet and visible in listPets', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const created = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Nemo', categoryId: 9, status: 'pending' });
    expect(created.status).toBe(201);
    const pet = asPet(created.body);

    const fetched = await request(app).get(`/v1/pets/${pet.id}`).set(AUTH);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ id: 3, name: 'Nemo', categoryId: 9, status: 'pending' });

    const listed = await request(app).get('/v1/pets').set(AUTH);
    expect(listed.status).toBe(200);
    const pets = asPets(listed.body);
    expect(pets.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(pets[2]).toEqual({ id: 3, name: 'Nemo', categoryId: 9, status: 'pending' });

    const filtered = await request(app).get('/v1/pets?status=pending').set(AUTH);
    expect(asPets(filtered.body).map((p) => p.id)).toEqual([2, 3]);
  });

  it('stores and returns a pet created without status without a status', async () => {
    const { app } = await createTestApp({ pets: somePets(1) });
    const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'Tom', categoryId: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 2, name: 'Tom', categoryId: 2 });
    expect(Object.keys(res.body as object)).not.toContain('status');
    const fetched = await request(app).get('/v1/pets/2').set(AUTH);
    expect(fetched.body).toEqual({ id: 2, name: 'Tom', categoryId: 2 });
  });

  it('gives a pet created without status the configured default status', async () => {
    const { app } = await createTestApp({ pets: somePets(1), defaultStatus: 'pending' });
    const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'Tom', categoryId: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 2, name: 'Tom', categoryId: 2, status: 'pending' });
    const fetched = await request(app).get('/v1/pets/2').set(AUTH);
    expect(fetched.body).toEqual({ id: 2, name: 'Tom', categoryId: 2, status: 'pending' });
  });

  it('keeps an explicit status over the configured default', async () => {
    const { app } = await createTestApp({ pets: [], defaultStatus: 'pending' });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Tom', categoryId: 2, status: 'sold' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1, name: 'Tom', categoryId: 2, status: 'sold' });
  });

  it('accepts unknown fields but neither stores nor returns them', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Tom', categoryId: 2, colour: 'grey', id: 999, tags: ['a'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1, name: 'Tom', categoryId: 2 });
    const fetched = await request(app).get('/v1/pets/1').set(AUTH);
    expect(fetched.body).toEqual({ id: 1, name: 'Tom', categoryId: 2 });
    const listed = await request(app).get('/v1/pets').set(AUTH);
    expect(listed.body).toEqual([{ id: 1, name: 'Tom', categoryId: 2 }]);
  });

  it('ignores __proto__ and constructor keys: no prototype pollution, nothing returned', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(
        '{"name":"Tom","categoryId":2,"__proto__":{"polluted":"yes","status":"sold"},' +
          '"constructor":{"prototype":{"polluted":"yes"}}}',
      );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1, name: 'Tom', categoryId: 2 });
    expect(res.text).not.toContain('polluted');
    expect(res.text).not.toContain('__proto__');
    expect(res.text).not.toContain('constructor');
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('status');
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    const fetched = await request(app).get('/v1/pets/1').set(AUTH);
    expect(fetched.body).toEqual({ id: 1, name: 'Tom', categoryId: 2 });
  });

  it('accepts Content-Type application/json; charset=utf-8', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'Zoë', categoryId: 3 }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1, name: 'Zoë', categoryId: 3 });
  });

  it('keeps a categoryId above 2^53 exact (int64, PRODUCT.md)', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{"name":"Big","categoryId":9007199254740993}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":9007199254740993');
  });
});
