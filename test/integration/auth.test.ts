import type { Express } from 'express';
import request from 'supertest';
import type { Test } from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { asPet, asPets, expectError, somePets } from '../helpers/http-matrix.js';

type Headers = Readonly<Record<string, string>>;

interface OperationCall {
  operationId: string;
  ok: number;
  call: (app: Express, headers: Headers) => Test;
}

const OPERATIONS: readonly OperationCall[] = [
  { operationId: 'listPets', ok: 200, call: (app, h) => request(app).get('/v1/pets').set(h) },
  {
    operationId: 'createPet',
    ok: 201,
    call: (app, h) => request(app).post('/v1/pets').set(h).send({ name: 'Rex', categoryId: 1 }),
  },
  { operationId: 'getPet', ok: 200, call: (app, h) => request(app).get('/v1/pets/1').set(h) },
];

const REFUSED_HEADERS: readonly [string, Headers][] = [
  ['no Authorization header', {}],
  ['an empty Authorization header', { Authorization: '' }],
  ['a blank Authorization header', { Authorization: '   ' }],
  ['"Bearer" with no token', { Authorization: 'Bearer' }],
  ['"Bearer " with an empty token', { Authorization: 'Bearer   ' }],
  ['the Basic scheme', { Authorization: 'Basic xyz' }],
  ['a token with no scheme', { Authorization: 'test-key' }],
  ['the Token scheme', { Authorization: 'Token test-key' }],
];

const CASES = OPERATIONS.flatMap((op) =>
  REFUSED_HEADERS.map(([label, headers]) => [op.operationId, label, op, headers] as const),
);

describe('authentication (section 5)', () => {
  it.each(CASES)('%s with %s → 401 unauthorized', async (_id, _label, op, headers) => {
    const { app, state } = await createTestApp({ pets: somePets(3) });
    const res = await op.call(app, headers);
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(await state.petCount()).toBe(3);
  });

  it.each(OPERATIONS)('$operationId with a Bearer token → $ok', async (op) => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await op.call(app, AUTH);
    expect(res.status).toBe(op.ok);
  });

  it.each(OPERATIONS)('$operationId accepts the scheme in lower case: "bearer tok"', async (op) => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await op.call(app, { Authorization: 'bearer tok' });
    expect(res.status).toBe(op.ok);
  });

  it('accepts any non-empty token when no keys are configured', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await request(app).get('/v1/pets').set('Authorization', 'Bearer anything-at-all');
    expect(res.status).toBe(200);
    expect(asPets(res.body).map((pet) => pet.id)).toEqual([1, 2, 3]);
  });

  describe('with apiKeys k1, k2', () => {
    it.each(['k1', 'k2'])('accepts the key %s on every operation', async (key) => {
      const { app } = await createTestApp({ pets: somePets(3), apiKeys: ['k1', 'k2'] });
      for (const op of OPERATIONS) {
        const res = await op.call(app, { Authorization: `Bearer ${key}` });
        expect(res.status).toBe(op.ok);
      }
    });

    it.each(OPERATIONS)('$operationId refuses a wrong key with 401 unauthorized', async (op) => {
      const { app, state } = await createTestApp({ pets: somePets(3), apiKeys: ['k1', 'k2'] });
      const res = await op.call(app, { Authorization: 'Bearer wrong' });
      expectError(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
      expect(await state.petCount()).toBe(3);
    });

    it.each(['K1', 'k', 'k3', 'k1k2', 'k1,k2'])('refuses the near-miss key %j', async (key) => {
      const { app } = await createTestApp({ pets: somePets(3), apiKeys: ['k1', 'k2'] });
      const res = await request(app).get('/v1/pets').set('Authorization', `Bearer ${key}`);
      expectError(res, 401, 'unauthorized');
    });
  });

  describe('is checked before anything else', () => {
    it('an unauthenticated malformed JSON POST → 401, not 400', async () => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const res = await request(app)
        .post('/v1/pets')
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expectError(res, 401, 'unauthorized');
      expect(await state.petCount()).toBe(3);
    });

    it('an unauthenticated invalid body (missing name) → 401, not 400', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      const res = await request(app).post('/v1/pets').send({ categoryId: 1 });
      expectError(res, 401, 'unauthorized');
    });

    it('an unauthenticated text/plain POST → 401, not 400', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      const res = await request(app).post('/v1/pets').set('Content-Type', 'text/plain').send('hi');
      expectError(res, 401, 'unauthorized');
    });

    it('an unauthenticated ?limit=0 → 401, not 400', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      expectError(await request(app).get('/v1/pets?limit=0'), 401, 'unauthorized');
    });

    it('an unauthenticated getPet with a non-integer id → 401, not 400', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      expectError(await request(app).get('/v1/pets/abc'), 401, 'unauthorized');
    });

    it('an unauthenticated oversize body → 401, not 413', async () => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const res = await request(app)
        .post('/v1/pets')
        .send({ name: 'x'.repeat(200 * 1024), categoryId: 1 });
      expectError(res, 401, 'unauthorized');
      expect(await state.petCount()).toBe(3);
    });

    it.each(['/v1/nope', '/v1/pets/1/owner', '/v1/'])(
      'an unauthenticated unknown path %s under /v1 → 401, not 404',
      async (path) => {
        const { app } = await createTestApp({ pets: somePets(3) });
        expectError(await request(app).get(path), 401, 'unauthorized');
      },
    );

    it('an unauthenticated wrong method under /v1 → 401, not 405', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      expectError(await request(app).delete('/v1/pets'), 401, 'unauthorized');
    });
  });

  it('a refused createPet creates nothing', async () => {
    const { app, state } = await createTestApp({ pets: somePets(3), apiKeys: ['k1'] });
    await request(app).post('/v1/pets').send({ name: 'a', categoryId: 1 }).expect(401);
    await request(app)
      .post('/v1/pets')
      .set('Authorization', 'Bearer wrong')
      .send({ name: 'b', categoryId: 1 })
      .expect(401);
    expect(await state.petCount()).toBe(3);
    const created = await request(app)
      .post('/v1/pets')
      .set('Authorization', 'Bearer k1')
      .send({ name: 'c', categoryId: 1 });
    expect(created.status).toBe(201);
    // No id was spent on the refused attempts.
    expect(asPet(created.body).id).toBe(4);
  });
});
