import request from 'supertest';
import type { Response } from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { expectError, somePets } from '../helpers/http-matrix.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

function expectDeprecationHeaders(res: Response): void {
  expect(res.headers.deprecation).toBe('@1735689600');
  expect(res.headers.sunset).toBe(SUNSET);
  expect(res.headers.link).toContain('</v1/pets>');
  expect(res.headers.link).toContain('rel="successor-version"');
}

function expectNoDeprecationHeaders(res: Response): void {
  expect(res.headers.deprecation).toBeUndefined();
  expect(res.headers.sunset).toBeUndefined();
  expect(res.headers.link).toBeUndefined();
}

function warnLines(logs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return logs.filter((line) => line.level === 40);
}

describe('getPet (GET /v1/pets/{petId})', () => {
  it('answers 200 with the pet', async () => {
    const { app } = await createTestApp({ pets: somePets(5) });
    const res = await request(app).get('/v1/pets/4').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ id: 4, name: 'pet-4', categoryId: 4, status: 'available' });
  });

  it('answers a pet without status without a status field', async () => {
    const { app } = await createTestApp({ pets: [{ id: 8, name: 'plain', categoryId: 2 }] });
    const res = await request(app).get('/v1/pets/8').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 8, name: 'plain', categoryId: 2 });
  });

  it.each(['6', '0', '1000', '9007199254740993', '9223372036854775807'])(
    'answers 404 not_found for the unknown id %s (rule 4.3)',
    async (id) => {
      const { app } = await createTestApp({ pets: somePets(5) });
      const res = await request(app).get(`/v1/pets/${id}`).set(AUTH);
      expectError(res, 404, 'not_found');
    },
  );

  it('keeps ids above 2^53 exact: 9007199254740993 is not the pet 9007199254740992 (int64)', async () => {
    const big = 2 ** 53;
    // Beyond 2^53 the store holds ids as bigints (Int64's canonical form).
    const { app } = await createTestApp({ pets: [{ id: 2n ** 53n, name: 'big', categoryId: 1 }] });
    const found = await request(app).get(`/v1/pets/${big}`).set(AUTH);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ id: big, name: 'big', categoryId: 1 });
    const other = await request(app).get('/v1/pets/9007199254740993').set(AUTH);
    expectError(other, 404, 'not_found');
  });

  it('answers 404 for any id in an empty store', async () => {
    const { app } = await createTestApp({ pets: [] });
    expectError(await request(app).get('/v1/pets/1').set(AUTH), 404, 'not_found');
  });

  describe('deprecation headers on every response', () => {
    it('are on a 200', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets/1').set(AUTH);
      expect(res.status).toBe(200);
      expectDeprecationHeaders(res);
    });

    it('are on a 404', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets/99').set(AUTH);
      expectError(res, 404, 'not_found');
      expectDeprecationHeaders(res);
    });

    it('are on a 400', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets/abc').set(AUTH);
      expectError(res, 400, 'bad_request');
      expectDeprecationHeaders(res);
    });

    it('are on a HEAD, which is answered as the GET without its body', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).head('/v1/pets/1').set(AUTH);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).toBeUndefined();
      expectDeprecationHeaders(res);
    });

    it('are on a 401', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets/1');
      expectError(res, 401, 'unauthorized');
      expectDeprecationHeaders(res);
    });

    it('are on a 401 for a wrong key', async () => {
      const { app } = await createTestApp({ pets: somePets(2), apiKeys: ['k1'] });
      const res = await request(app).get('/v1/pets/1').set('Authorization', 'Bearer nope');
      expectError(res, 401, 'unauthorized');
      expectDeprecationHeaders(res);
    });

    it('are not on listPets', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets').set(AUTH);
      expect(res.status).toBe(200);
      expectNoDeprecationHeaders(res);
    });

    it('are not on createPet', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'n', categoryId: 1 });
      expect(res.status).toBe(201);
      expectNoDeprecationHeaders(res);
    });

    it('are not on a failing createPet or listPets', async () => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const created = await request(app).post('/v1/pets').set(AUTH).send({ name: 'n' });
      expectError(created, 400, 'bad_request');
      expectNoDeprecationHeaders(created);
      const listed = await request(app).get('/v1/pets');
      expectError(listed, 401, 'unauthorized');
      expectNoDeprecationHeaders(listed);
    });
  });

  describe('deprecation warning in the log', () => {
    it('is logged at warn level on the first getPet of a client', async () => {
      const { app, logs } = await createTestApp({ pets: somePets(2) });
      expect(warnLines(logs)).toHaveLength(0);
      await request(app).get('/v1/pets/1').set(AUTH).expect(200);
      const warns = warnLines(logs);
      expect(warns).toHaveLength(1);
      expect(String(warns[0]?.msg)).toMatch(/deprecated/i);
    });

    it('is logged once per client: two requests from the same client give one warn line', async () => {
      const { app, logs } = await createTestApp({ pets: somePets(2) });
      await request(app).get('/v1/pets/1').set(AUTH).set('User-Agent', 'client-a').expect(200);
      await request(app).get('/v1/pets/2').set(AUTH).set('User-Agent', 'client-a').expect(200);
      expect(warnLines(logs)).toHaveLength(1);
    });

    it('is logged again for another client', async () => {
      const { app, logs } = await createTestApp({ pets: somePets(2) });
      await request(app).get('/v1/pets/1').set(AUTH).set('User-Agent', 'client-a').expect(200);
      await request(app).get('/v1/pets/1').set(AUTH).set('User-Agent', 'client-b').expect(200);
      expect(warnLines(logs)).toHaveLength(2);
    });

    it('is not logged for listPets or createPet', async () => {
      const { app, logs } = await createTestApp({ pets: somePets(2) });
      await request(app).get('/v1/pets').set(AUTH).expect(200);
      await request(app).post('/v1/pets').set(AUTH).send({ name: 'n', categoryId: 1 }).expect(201);
      expect(warnLines(logs)).toHaveLength(0);
    });
  });
});
