import request from 'supertest';
import {
  activate,
  asJournal,
  asScenarioListing,
  createPetVia,
  expectError,
  listNames,
  petHeaders,
  sessionHeader,
} from '../helpers/scenario-http.js';
import { AUTH, createTestApp, fixturePets, isLive, liveCount } from '../helpers/test-app.js';

const INITIAL_NAMES = fixturePets.map((pet) => pet.name);
const KNOWN_ID = fixturePets[0]?.id ?? 1;

describe('X-Mock-Session isolation', () => {
  it('a pet created in one session is invisible to the others and to the default one', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const created = await createPetVia(app, 'Only-w1', 'w1');
    expect(await listNames(app, 'w1')).toContain('Only-w1');
    expect(await listNames(app, 'w2')).not.toContain('Only-w1');
    expect(await listNames(app)).not.toContain('Only-w1');
    expect(await state.petCount()).toBe(before);
    await request(app).get(`/v1/pets/${created.id}`).set(petHeaders('w1')).expect(200);
    expectError(
      await request(app).get(`/v1/pets/${created.id}`).set(petHeaders('w2')),
      404,
      'not_found',
    );
    expectError(await request(app).get(`/v1/pets/${created.id}`).set(AUTH), 404, 'not_found');
  });

  it('a pet created without a session is invisible to named sessions', async () => {
    const { app, state } = await createTestApp();
    await createPetVia(app, 'Default-only');
    expect(await state.petCount()).toBe(fixturePets.length + 1);
    expect(await listNames(app, 'w1')).toEqual(INITIAL_NAMES);
  });

  it('each session hands out ids from the initial counter', async () => {
    const { app } = await createTestApp();
    const a = await createPetVia(app, 'A', 'w1');
    const b = await createPetVia(app, 'B', 'w2');
    const c = await createPetVia(app, 'C');
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
  });

  it('a new session starts from the initial data', async () => {
    const { app } = await createTestApp();
    await createPetVia(app, 'Early');
    expect(await listNames(app, 'late')).toEqual(INITIAL_NAMES);
  });

  it('a reset of one session leaves the others', async () => {
    const { app } = await createTestApp();
    await createPetVia(app, 'In-w1', 'w1');
    await createPetVia(app, 'In-w2', 'w2');
    await createPetVia(app, 'In-default');
    await request(app).post('/__admin/reset').set(sessionHeader('w1')).expect(204);
    expect(await listNames(app, 'w1')).toEqual(INITIAL_NAMES);
    expect(await listNames(app, 'w2')).toContain('In-w2');
    expect(await listNames(app)).toContain('In-default');
  });

  it('a reset of the default session leaves the named ones', async () => {
    const { app } = await createTestApp();
    await createPetVia(app, 'In-w1', 'w1');
    await createPetVia(app, 'In-default');
    await request(app).post('/__admin/reset').expect(204);
    expect(await listNames(app)).toEqual(INITIAL_NAMES);
    expect(await listNames(app, 'w1')).toContain('In-w1');
  });

  it('a scenario switched on for w1 affects neither w2 nor the default session', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found', { session: 'w1' });
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w1')).expect(404);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w2')).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);

    const w1 = asScenarioListing(
      (await request(app).get('/__admin/scenarios').set(sessionHeader('w1')).expect(200)).body,
    );
    const w2 = asScenarioListing(
      (await request(app).get('/__admin/scenarios').set(sessionHeader('w2')).expect(200)).body,
    );
    const none = asScenarioListing((await request(app).get('/__admin/scenarios').expect(200)).body);
    expect(w1.active).toEqual({ name: 'not-found', remaining: null });
    expect(w2.active).toBeNull();
    expect(none.active).toBeNull();
  });

  it('a scenario switched on for the default session does not reach named sessions', async () => {
    const { app } = await createTestApp();
    await activate(app, 'unauthorized');
    await request(app).get('/v1/pets').set(AUTH).expect(401);
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
  });

  it('switching off in one session leaves the other on', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found', { session: 'w1' });
    await activate(app, 'not-found', { session: 'w2' });
    await request(app).delete('/__admin/scenario').set(sessionHeader('w1')).expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w1')).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w2')).expect(404);
  });

  it('times counts per session', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found', { times: 1, session: 'w1' });
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w2')).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w1')).expect(404);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w1')).expect(200);
  });

  it('two parallel workers create, reset and switch scenarios without seeing each other', async () => {
    const { app } = await createTestApp();
    const worker = async (id: string): Promise<string[]> => {
      const mine: string[] = [];
      for (let round = 0; round < 4; round += 1) {
        await Promise.all(
          [0, 1, 2].map(async (n) => {
            const name = `${id}-r${round}-p${n}`;
            await createPetVia(app, name, id);
            mine.push(name);
          }),
        );
        if (round === 1) {
          await request(app).post('/__admin/reset').set(sessionHeader(id)).expect(204);
          mine.length = 0;
        }
        if (round === 2) {
          await activate(app, 'empty-catalogue', { session: id });
          const empty = await request(app).get('/v1/pets').set(petHeaders(id)).expect(200);
          expect(empty.body).toEqual([]);
          await request(app).delete('/__admin/scenario').set(sessionHeader(id)).expect(204);
        }
      }
      return mine;
    };
    const [mineA, mineB] = await Promise.all([worker('wa'), worker('wb')]);
    const seenA = await listNames(app, 'wa');
    const seenB = await listNames(app, 'wb');
    expect(seenA.filter((name) => name.startsWith('w')).sort()).toEqual([...mineA].sort());
    expect(seenB.filter((name) => name.startsWith('w')).sort()).toEqual([...mineB].sort());
    expect(seenA.some((name) => name.startsWith('wb-'))).toBe(false);
    expect(seenB.some((name) => name.startsWith('wa-'))).toBe(false);
    expect(mineA).toHaveLength(6);
    expect(seenA).toHaveLength(fixturePets.length + 6);
    expect(await listNames(app)).toEqual(INITIAL_NAMES);
  });

  it('parallel scenario switches stay in their sessions', async () => {
    const { app } = await createTestApp();
    const results = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const session = i % 2 === 0 ? 'even' : 'odd';
        if (i < 2) await activate(app, i === 0 ? 'not-found' : 'unauthorized', { session });
        return session;
      }),
    );
    expect(results).toHaveLength(6);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('even')).expect(404);
    await request(app).get('/v1/pets').set(petHeaders('even')).expect(200);
    await request(app).get('/v1/pets').set(petHeaders('odd')).expect(401);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
  });
});

describe('the LRU bound on live sessions', () => {
  it('with maxSessions 2, using a, b then c drops a: a comes back fresh', async () => {
    const { app, state } = await createTestApp({ maxSessions: 2 });
    await createPetVia(app, 'A-pet', 'a');
    await createPetVia(app, 'B-pet', 'b');
    await createPetVia(app, 'C-pet', 'c');
    expect(await liveCount(state)).toBe(2);
    expect(await isLive(state, 'a')).toBe(false);
    expect(await listNames(app, 'a')).toEqual(INITIAL_NAMES);
  });

  it('with maxSessions 2, using a, b, a then c drops b and keeps a', async () => {
    const { app, state } = await createTestApp({ maxSessions: 2 });
    await createPetVia(app, 'A-pet', 'a');
    await createPetVia(app, 'B-pet', 'b');
    await request(app).get('/v1/pets').set(petHeaders('a')).expect(200);
    await createPetVia(app, 'C-pet', 'c');
    expect(await isLive(state, 'b')).toBe(false);
    expect(await listNames(app, 'a')).toContain('A-pet');
    expect(await listNames(app, 'b')).toEqual(INITIAL_NAMES);
  });

  it('an admin switch counts as use of a session', async () => {
    const { app, state } = await createTestApp({ maxSessions: 2 });
    await createPetVia(app, 'A-pet', 'a');
    await createPetVia(app, 'B-pet', 'b');
    await request(app).delete('/__admin/scenario').set(sessionHeader('a')).expect(204);
    await createPetVia(app, 'C-pet', 'c');
    expect(await isLive(state, 'a')).toBe(true);
    expect(await isLive(state, 'b')).toBe(false);
  });

  it('admin reads (the console polls them) neither create a session nor keep one', async () => {
    const { app, state } = await createTestApp({ maxSessions: 2 });
    await createPetVia(app, 'A-pet', 'a');
    await createPetVia(app, 'B-pet', 'b');
    for (const path of ['/__admin/scenarios', '/__admin/requests', '/__admin/coverage']) {
      await request(app).get(path).set(sessionHeader('gone')).expect(200);
      await request(app).get(path).set(sessionHeader('a')).expect(200);
    }
    expect(await isLive(state, 'gone')).toBe(false);
    const journal = await request(app).get('/__admin/requests').set(sessionHeader('gone'));
    expect(journal.body).toEqual({ requests: [] });
    expect([await isLive(state, 'a'), await isLive(state, 'b')]).toEqual([true, true]);
    await createPetVia(app, 'C-pet', 'c'); // a, used before b, goes: the reads did not count
    expect(await isLive(state, 'a')).toBe(false);
    expect(await isLive(state, 'b')).toBe(true);
  });

  it('a dropped session loses its scenario too', async () => {
    const { app } = await createTestApp({ maxSessions: 1 });
    await activate(app, 'not-found', { session: 'a' });
    await request(app).get('/v1/pets').set(petHeaders('b')).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('a')).expect(200);
  });

  it('the default session is never dropped', async () => {
    const { app } = await createTestApp({ maxSessions: 1 });
    await createPetVia(app, 'Default-pet');
    for (const id of ['a', 'b', 'c']) await createPetVia(app, `${id}-pet`, id);
    expect(await listNames(app)).toContain('Default-pet');
  });
});

describe('invalid session ids', () => {
  it.each(['bad id!', 'x'.repeat(65), 'a/b', 'ü'])(
    'the pet API refuses X-Mock-Session %j with 422 invalid_session',
    async (id) => {
      const { app, state } = await createTestApp();
      const before = await state.petCount();
      const res = await request(app)
        .post('/v1/pets')
        .set(AUTH)
        .set('X-Mock-Session', id)
        .send({ name: 'Nope', categoryId: 1 });
      const body = expectError(res, 422, 'invalid_session');
      expect(body.message).toMatch(/control plane/);
      expect(await state.petCount()).toBe(before);
      expect(await liveCount(state)).toBe(0);
    },
  );

  it.each([
    ['post', '/__admin/reset'],
    ['get', '/__admin/scenarios'],
    ['delete', '/__admin/scenario'],
    ['get', '/__admin/requests'],
  ] as const)('admin %s %s refuses an invalid session id with 422', async (method, path) => {
    const { app } = await createTestApp();
    const res = await request(app)[method](path).set('X-Mock-Session', 'bad id!');
    expectError(res, 422, 'invalid_session');
  });

  it('admin GET /__admin/sessions lists the default session, then the live ones, newest first', async () => {
    const { app } = await createTestApp({ maxSessions: 2 });
    const list = async (): Promise<unknown> =>
      (await request(app).get('/__admin/sessions').expect(200)).body;
    expect(await list()).toEqual({ sessions: [{ id: null, active: null }] });
    await activate(app, 'not-found', { times: 2, session: 'w1' });
    await request(app).get('/v1/pets').set(petHeaders('w2')).expect(200);
    await activate(app, 'slow');
    expect(await list()).toEqual({
      sessions: [
        { id: null, active: { name: 'slow', remaining: null } },
        { id: 'w2', active: null },
        { id: 'w1', active: { name: 'not-found', remaining: 2 } },
      ],
    });
    // Listing is no use: w1 stays the least recently used, and goes when w3 arrives.
    await request(app).get('/v1/pets').set(petHeaders('w3')).expect(200);
    expect(await list()).toEqual({
      sessions: [
        { id: null, active: { name: 'slow', remaining: null } },
        { id: 'w3', active: null },
        { id: 'w2', active: null },
      ],
    });
  });

  it('admin GET /__admin/sessions is not session-scoped: it ignores the header, creating nothing', async () => {
    const { app, state } = await createTestApp();
    const res = await request(app).get('/__admin/sessions').set('X-Mock-Session', 'w9');
    expect(res.body).toEqual({ sessions: [{ id: null, active: null }] });
    expect(await liveCount(state)).toBe(0);
  });

  // admin-openapi.yaml gives health the Session parameter ("another value is refused with 422
  // invalid_session") and documents a 422 answer for it.
  it('admin GET /__admin/health is not session-scoped: it ignores the header', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/__admin/health').set('X-Mock-Session', 'bad id!');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('admin PUT /__admin/scenario refuses an invalid session id with 422', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .put('/__admin/scenario')
      .set('X-Mock-Session', 'x'.repeat(65))
      .send({ name: 'not-found' });
    expectError(res, 422, 'invalid_session');
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });

  // PRODUCT.md: auth is "checked before anything else" on every /v1 operation.
  it('the pet API answers 401, not 422, to an invalid session id without credentials', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets').set('X-Mock-Session', 'bad id!');
    expectError(res, 401, 'unauthorized');
  });

  it('accepts a 64-character id', async () => {
    const { app } = await createTestApp();
    await request(app)
      .get('/v1/pets')
      .set(petHeaders('x'.repeat(64)))
      .expect(200);
  });
});

describe('session journals', () => {
  it('each session journals its own requests', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(petHeaders('w2')).expect(200);
    await request(app).post('/v1/pets').set(AUTH).send({ name: 'D', categoryId: 1 }).expect(201);
    const w1 = asJournal(
      (await request(app).get('/__admin/requests').set(sessionHeader('w1')).expect(200)).body,
    );
    const w2 = asJournal(
      (await request(app).get('/__admin/requests').set(sessionHeader('w2')).expect(200)).body,
    );
    const none = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(w1.map((e) => e.operationId)).toEqual(['listPets']);
    expect(w2.map((e) => e.operationId)).toEqual(['getPet']);
    expect(none.map((e) => e.operationId)).toEqual(['createPet']);
  });

  it('a reset of one session empties only its journal', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get('/v1/pets').set(petHeaders('w2')).expect(200);
    await request(app).post('/__admin/reset').set(sessionHeader('w1')).expect(204);
    const w1 = asJournal(
      (await request(app).get('/__admin/requests').set(sessionHeader('w1')).expect(200)).body,
    );
    const w2 = asJournal(
      (await request(app).get('/__admin/requests').set(sessionHeader('w2')).expect(200)).body,
    );
    expect(w1).toEqual([]);
    expect(w2).toHaveLength(1);
  });
});
