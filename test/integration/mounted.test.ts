import express from 'express';
import request from 'supertest';
import { expectError, somePets } from '../helpers/http-matrix.js';
import { AUTH, createTestApp } from '../helpers/test-app.js';

// createApp returns an Express app: a user can mount the whole mock in an app of their own, under
// a prefix too, and every check still applies below it.
async function mountedUnder(prefix: string) {
  const { app, state } = await createTestApp({ pets: somePets(3) });
  const outer = express();
  outer.get('/own', (_req, res) => {
    res.json({ own: true });
  });
  outer.use(prefix, app);
  return { outer, state };
}

describe('the mock mounted in an Express app of its own', () => {
  it('serves the pet API and the admin API below the prefix', async () => {
    const { outer } = await mountedUnder('/mock');
    const list = await request(outer).get('/mock/v1/pets').set(AUTH);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    await request(outer).get('/mock/__admin/health').expect(200, { status: 'ok' });
    await request(outer).get('/own').expect(200, { own: true });
  });

  it('validates requests and answers there too', async () => {
    const { outer, state } = await mountedUnder('/mock');
    const res = await request(outer).get('/mock/v1/pets?limit=0').set(AUTH);
    expect(expectError(res, 400, 'bad_request').message).toContain("'limit'");
    expectError(await request(outer).get('/mock/v1/pets'), 401, 'unauthorized');
    const created = await request(outer)
      .post('/mock/v1/pets')
      .set(AUTH)
      .send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(await state.petCount()).toBe(4);
  });

  it('points the deprecation Link at the replacement below the prefix', async () => {
    const { outer } = await mountedUnder('/mock');
    const res = await request(outer).get('/mock/v1/pets/1').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.headers.link).toMatch(/^<\/mock\/v1\/pets>;/);
  });
});
