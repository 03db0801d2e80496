import request from 'supertest';
import {
  activate,
  asJournal,
  asScenarioListing,
  createPetVia,
  expectError,
  listNames,
} from '../helpers/scenario-http.js';
import { ADMIN_PATH } from '../../src/api/app.js';
import { basePathOf } from '../../src/contract/operation-index.js';
import { AUTH, adminContract, createTestApp, fixturePets } from '../helpers/test-app.js';

const KNOWN_ID = fixturePets[0]?.id ?? 1;
const INITIAL_NAMES = fixturePets.map((pet) => pet.name);

/** Every admin call, with a body where it needs one. */
const ADMIN_CALLS = [
  ['get', '/__admin/health', undefined],
  ['get', '/__admin/metrics', undefined],
  ['post', '/__admin/reset', undefined],
  ['get', '/__admin/scenarios', undefined],
  ['get', '/__admin/sessions', undefined],
  ['put', '/__admin/scenario', { name: 'not-found' }],
  ['delete', '/__admin/scenario', undefined],
  ['get', '/__admin/requests', undefined],
  ['get', '/__admin/coverage', undefined],
  ['delete', '/__admin/coverage', undefined],
] as const;

describe('admin basics', () => {
  it('is served where its document says (the app does not parse it at start)', () => {
    expect(basePathOf(adminContract.document)).toBe(ADMIN_PATH);
  });

  it('GET /__admin/health answers 200 {"status":"ok"}', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/__admin/health').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('POST /__admin/reset puts back the initial pets, switches scenarios off and empties the journal', async () => {
    const { app, state } = await createTestApp();
    await createPetVia(app, 'Temporary');
    await activate(app, 'empty-catalogue');
    const res = await request(app).post('/__admin/reset').expect(204);
    expect(res.text).toBe('');
    expect(await state.petCount()).toBe(fixturePets.length);
    const listing = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(listing.active).toBeNull();
    expect(asJournal((await request(app).get('/__admin/requests').expect(200)).body)).toEqual([]);
    expect(await listNames(app)).toEqual(INITIAL_NAMES);
  });

  it('a reset restarts the id counter', async () => {
    const { app } = await createTestApp();
    const first = await createPetVia(app, 'One');
    await request(app).post('/__admin/reset').expect(204);
    const again = await createPetVia(app, 'Two');
    expect(again.id).toBe(first.id);
  });

  it('PUT and DELETE /__admin/scenario answer 204 with no body', async () => {
    const { app } = await createTestApp();
    const put = await request(app).put('/__admin/scenario').send({ name: 'not-found', times: 3 });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    const del = await request(app).delete('/__admin/scenario');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });
});

describe('admin validation', () => {
  it.each(['post', 'put', 'delete'] as const)(
    '%s /__admin/health is 405 with an Allow header',
    async (method) => {
      const { app } = await createTestApp();
      const res = await request(app)[method]('/__admin/health');
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toMatch(/GET/);
    },
  );

  it('GET /__admin/reset is 405 with Allow: POST', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/__admin/reset');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toMatch(/POST/);
  });

  it.each(['/__admin/nope', '/__admin', '/__admin/scenarios/not-found'])(
    'GET %s is 404 not_found',
    async (path) => {
      const { app } = await createTestApp();
      expectError(await request(app).get(path), 404, 'not_found');
    },
  );

  it('a bad JSON body is 400 bad_request as JSON', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expectError(res, 400, 'bad_request');
  });

  it('?limit out of range or not an integer is 400 bad_request', async () => {
    const { app } = await createTestApp();
    for (const limit of ['0', '1001', '-1', 'abc', '2.5']) {
      const res = await request(app).get(`/__admin/requests?limit=${limit}`);
      expectError(res, 400, 'bad_request');
    }
  });

  it('an unknown query parameter on the journal is 400', async () => {
    const { app } = await createTestApp();
    expectError(await request(app).get('/__admin/requests?lmit=2'), 400, 'bad_request');
  });
});

describe('the admin token', () => {
  it.each(ADMIN_CALLS)('%s %s without a token is 401 unauthorized', async (method, path, body) => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    const res = await request(app)[method](path).send(body);
    expectError(res, 401, 'unauthorized');
  });

  it.each(ADMIN_CALLS)('%s %s with a wrong token is 401', async (method, path, body) => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    for (const header of [
      'Bearer s3cre',
      'Bearer s3cret2',
      'Bearer S3CRET',
      'Basic s3cret',
      's3cret',
    ]) {
      const res = await request(app)[method](path).set('Authorization', header).send(body);
      expectError(res, 401, 'unauthorized');
    }
  });

  it.each(ADMIN_CALLS)('%s %s with the pet API key is 401', async (method, path, body) => {
    const { app } = await createTestApp({ adminToken: 's3cret', apiKeys: ['test-key'] });
    const res = await request(app)[method](path).set(AUTH).send(body);
    expectError(res, 401, 'unauthorized');
  });

  it.each(ADMIN_CALLS)('%s %s with Bearer s3cret is served', async (method, path, body) => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    const res = await request(app)[method](path).set('Authorization', 'Bearer s3cret').send(body);
    expect([200, 204]).toContain(res.status);
  });

  it('checks the admin token before the session id', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    const res = await request(app).get('/__admin/scenarios').set('X-Mock-Session', 'bad id!');
    expectError(res, 401, 'unauthorized');
  });

  it('a refused admin call changes nothing', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    await request(app).put('/__admin/scenario').send({ name: 'unauthorized' }).expect(401);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await createPetVia(app, 'Kept');
    await request(app).post('/__admin/reset').set('Authorization', 'Bearer wrong').expect(401);
    expect(await listNames(app)).toContain('Kept');
  });

  it('the token really switches a scenario on', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    await request(app)
      .put('/__admin/scenario')
      .set('Authorization', 'Bearer s3cret')
      .send({ name: 'not-found' })
      .expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
  });

  it('the pet API does not need the admin token', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).post('/v1/pets').set(AUTH).send({ name: 'A', categoryId: 1 }).expect(201);
  });

  it('the admin token does not open the pet API when API keys are set', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret', apiKeys: ['test-key'] });
    const res = await request(app).get('/v1/pets').set('Authorization', 'Bearer s3cret');
    expectError(res, 401, 'unauthorized');
  });

  it.each(ADMIN_CALLS)('without an admin token, %s %s is open', async (method, path, body) => {
    const { app } = await createTestApp();
    const res = await request(app)[method](path).send(body);
    expect([200, 204]).toContain(res.status);
  });
});

describe('the journal (GET /__admin/requests)', () => {
  it('lists pet API requests newest first with every field', async () => {
    const { app } = await createTestApp();
    const first = await request(app).get('/v1/pets?limit=2&status=sold').set(AUTH).expect(200);
    const second = await request(app).post('/v1/pets').set(AUTH).send({ name: 'A', categoryId: 1 });
    const third = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('Prefer', 'code=404');
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => e.requestId)).toEqual([
      third.headers['x-request-id'],
      second.headers['x-request-id'],
      first.headers['x-request-id'],
    ]);
    expect(entries[2]).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      operationId: 'listPets',
      status: 200,
      scenario: null,
      validationErrors: [],
    });
    expect(entries[1]).toMatchObject({
      method: 'POST',
      path: '/v1/pets',
      operationId: 'createPet',
      status: 201,
      scenario: null,
    });
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: `/v1/pets/${KNOWN_ID}`,
      operationId: 'getPet',
      status: 404,
      scenario: 'Prefer: code=404',
    });
    for (const entry of entries) {
      expect(entry.requestId).not.toBe('');
      expect(new Date(entry.time).toISOString()).toBe(entry.time);
      expect(Math.abs(Date.now() - Date.parse(entry.time))).toBeLessThan(60_000);
    }
    expect(Date.parse(entries[2]?.time ?? '')).toBeLessThanOrEqual(
      Date.parse(entries[0]?.time ?? ''),
    );
  });

  it('uses the client X-Request-Id when it gives one', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets').set(AUTH).set('X-Request-Id', 'trace-42');
    expect(res.headers['x-request-id']).toBe('trace-42');
    const [entry] = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entry?.requestId).toBe('trace-42');
  });

  it('names the scenario that forced an answer', async () => {
    const { app } = await createTestApp();
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).set('X-Mock-Scenario', 'not-found');
    await activate(app, 'unauthorized');
    await request(app).get('/v1/pets').set(AUTH).expect(401);
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries.map((e) => [e.status, e.scenario])).toEqual([
      [401, 'scenario unauthorized'],
      [404, 'scenario not-found'],
    ]);
  });

  it('records the validation errors of a refused request', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets?limit=1000').set(AUTH).expect(400);
    await request(app).post('/v1/pets').set(AUTH).send({ categoryId: 'x' }).expect(400);
    const [create, list] = asJournal(
      (await request(app).get('/__admin/requests').expect(200)).body,
    );
    expect(list).toMatchObject({ operationId: 'listPets', status: 400, scenario: null });
    expect(list?.validationErrors.length).toBeGreaterThan(0);
    expect(list?.validationErrors.every((e) => e.trim() !== '')).toBe(true);
    expect(list?.validationErrors.join(' ')).toMatch(/limit/);
    expect(create).toMatchObject({ operationId: 'createPet', status: 400 });
    expect(create?.validationErrors.join(' ')).toMatch(/name|categoryId/);
  });

  it('records a 401 without credentials', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').expect(401);
    const [entry] = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entry).toMatchObject({ operationId: 'listPets', status: 401, scenario: null });
  });

  it('keeps the path without its query, and the query apart, as sent (to repeat the call)', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets?limit=3&status=available').set(AUTH).expect(200);
    await request(app).get('/v1/pets?limit=0').set(AUTH).expect(400);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries.map((e) => [e.path, e.query])).toEqual([
      ['/v1/pets', ''],
      ['/v1/pets', 'limit=0'],
      ['/v1/pets', 'limit=3&status=available'],
    ]);
  });

  it('?limit=2 gives the two newest', async () => {
    const { app } = await createTestApp();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
      ids.push(String(res.headers['x-request-id']));
    }
    const entries = asJournal(
      (await request(app).get('/__admin/requests?limit=2').expect(200)).body,
    );
    expect(entries.map((e) => e.requestId)).toEqual([ids[3], ids[2]]);
  });

  it('?limit=1000 is accepted', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    const entries = asJournal(
      (await request(app).get('/__admin/requests?limit=1000').expect(200)).body,
    );
    expect(entries).toHaveLength(1);
  });

  it.each(['0', '1001'])('?limit=%s is 400', async (limit) => {
    const { app } = await createTestApp();
    expectError(await request(app).get(`/__admin/requests?limit=${limit}`), 400, 'bad_request');
  });

  it('without limit gives at most 50', async () => {
    const { app } = await createTestApp({ journalSize: 100 });
    for (let i = 0; i < 55; i += 1)
      await request(app).get('/v1/pets?limit=1').set(AUTH).expect(200);
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries).toHaveLength(50);
  });

  it('is a bounded ring: with journalSize 3, after 5 requests only the 3 newest', async () => {
    const { app } = await createTestApp({ journalSize: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
      ids.push(String(res.headers['x-request-id']));
    }
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries.map((e) => e.requestId)).toEqual([ids[4], ids[3], ids[2]]);
  });

  it('does not journal admin calls', async () => {
    const { app } = await createTestApp();
    await request(app).get('/__admin/health').expect(200);
    await request(app).get('/__admin/scenarios').expect(200);
    await activate(app, 'not-found');
    await request(app).delete('/__admin/scenario').expect(204);
    await request(app).get('/__admin/requests').expect(200);
    expect(asJournal((await request(app).get('/__admin/requests').expect(200)).body)).toEqual([]);
  });

  it('is emptied by a reset', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).post('/__admin/reset').expect(204);
    expect(asJournal((await request(app).get('/__admin/requests').expect(200)).body)).toEqual([]);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(asJournal((await request(app).get('/__admin/requests').expect(200)).body)).toHaveLength(
      1,
    );
  });

  it('records a refused 422 control-plane request', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=404').expect(422);
    const [entry] = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entry).toMatchObject({ operationId: 'listPets', status: 422 });
  });
});

describe('the admin API', () => {
  it('checks the admin token on the very first call', async () => {
    const { app } = await createTestApp({ adminToken: 'secret' });
    expectError(await request(app).get('/__admin/health'), 401, 'unauthorized');
    await request(app).get('/__admin/health').set('Authorization', 'Bearer secret').expect(200);
  });
});
