import type { Express } from 'express';
import request from 'supertest';
import type { Test } from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { asPets, expectError, somePets } from '../helpers/http-matrix.js';

const JSON_TYPE = 'application/json';

interface CreateCase {
  /** What is wrong with the request. */
  label: string;
  send: (app: Express) => Test;
  status: number;
  code: string;
  /** Something the message must name (a field), matched case-insensitively. */
  names?: RegExp;
}

const post = (app: Express): Test => request(app).post('/v1/pets').set(AUTH);
const postJson = (app: Express, text: string): Test =>
  post(app).set('Content-Type', JSON_TYPE).send(text);

const CREATE_CASES: readonly CreateCase[] = [
  {
    label: 'missing name',
    send: (app) => post(app).send({ categoryId: 1 }),
    status: 400,
    code: 'bad_request',
    names: /name/,
  },
  {
    label: 'missing categoryId',
    send: (app) => post(app).send({ name: 'Rex' }),
    status: 400,
    code: 'bad_request',
    names: /categoryId/,
  },
  {
    label: 'missing both name and categoryId',
    send: (app) => post(app).send({}),
    status: 400,
    code: 'bad_request',
    names: /name/,
  },
  {
    label: 'name a number',
    send: (app) => post(app).send({ name: 42, categoryId: 1 }),
    status: 400,
    code: 'bad_request',
    names: /name/,
  },
  {
    label: 'name null',
    send: (app) => post(app).send({ name: null, categoryId: 1 }),
    status: 400,
    code: 'bad_request',
    names: /name/,
  },
  {
    label: 'categoryId a string',
    send: (app) => post(app).send({ name: 'Rex', categoryId: '1' }),
    status: 400,
    code: 'bad_request',
    names: /categoryId/,
  },
  {
    label: 'categoryId 1.5',
    send: (app) => post(app).send({ name: 'Rex', categoryId: 1.5 }),
    status: 400,
    code: 'bad_request',
    names: /categoryId/,
  },
  {
    label: 'categoryId above int64',
    send: (app) => postJson(app, '{"name":"Rex","categoryId":99999999999999999999}'),
    status: 400,
    code: 'bad_request',
    names: /categoryId/,
  },
  {
    label: 'status not in the enum',
    send: (app) => post(app).send({ name: 'Rex', categoryId: 1, status: 'lost' }),
    status: 400,
    code: 'bad_request',
    names: /status/,
  },
  {
    label: 'status null',
    send: (app) => post(app).send({ name: 'Rex', categoryId: 1, status: null }),
    status: 400,
    code: 'bad_request',
    names: /status/,
  },
  {
    label: 'body an array',
    send: (app) => post(app).send([{ name: 'Rex', categoryId: 1 }]),
    status: 400,
    code: 'bad_request',
  },
  {
    label: 'body null',
    send: (app) => postJson(app, 'null'),
    status: 400,
    code: 'bad_request',
  },
  {
    label: 'body a JSON string',
    send: (app) => postJson(app, '"str"'),
    status: 400,
    code: 'bad_request',
  },
  {
    label: 'body a JSON number',
    send: (app) => postJson(app, '42'),
    status: 400,
    code: 'bad_request',
  },
  {
    label: 'malformed JSON',
    send: (app) => postJson(app, '{"name": "Rex", "categoryId": '),
    status: 400,
    code: 'bad_request',
    names: /JSON/,
  },
  {
    label: 'empty body with a JSON content type',
    send: (app) => postJson(app, ''),
    status: 400,
    code: 'bad_request',
    names: /body/,
  },
  {
    label: 'no body and no content type',
    send: (app) => post(app),
    status: 400,
    code: 'bad_request',
    names: /body/,
  },
  {
    label: 'Content-Type text/plain',
    send: (app) =>
      post(app).set('Content-Type', 'text/plain').send('{"name":"Rex","categoryId":1}'),
    status: 400,
    code: 'unsupported_media_type',
    names: /application\/json/,
  },
  {
    label: 'form-urlencoded',
    send: (app) => post(app).type('form').send({ name: 'Rex', categoryId: '1' }),
    status: 400,
    code: 'unsupported_media_type',
    names: /application\/json/,
  },
  {
    label: 'Content-Type application/xml',
    send: (app) => post(app).set('Content-Type', 'application/xml').send('<pet/>'),
    status: 400,
    code: 'unsupported_media_type',
  },
  {
    label: 'a body over 100kb',
    send: (app) => post(app).send({ name: 'x'.repeat(101 * 1024), categoryId: 1 }),
    status: 413,
    code: 'payload_too_large',
    names: /100kb/,
  },
];

const LIST_CASES: readonly [query: string, parameter: string][] = [
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['limit=-1', 'limit'],
  ['limit=abc', 'limit'],
  ['limit=1.5', 'limit'],
  ['limit=', 'limit'],
  ['limit=99999999999999999999', 'limit'],
  ['status=lost', 'status'],
  ['status=', 'status'],
  ['status=Available', 'status'],
  ['cursor=abc', 'cursor'],
  ['page=2', 'page'],
];

describe('bad input (authenticated)', () => {
  describe('createPet (POST /v1/pets)', () => {
    it.each(CREATE_CASES)('$label → $status $code', async ({ send, status, code, names }) => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const res = await send(app);
      // Status and store size together, so a wrongly accepted body shows both in one diff.
      expect({ status: res.status, storeSize: await state.petCount() }).toEqual({
        status,
        storeSize: 3,
      });
      const body = expectError(res, status, code);
      if (names) expect(body.message).toMatch(new RegExp(names.source, 'i'));
    });

    it('a failed create spends no id: the next valid create gets the next id', async () => {
      const { app } = await createTestApp({ pets: somePets(3) });
      for (const { send } of CREATE_CASES) await send(app);
      const res = await post(app).send({ name: 'ok', categoryId: 1 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: 4, name: 'ok', categoryId: 1 });
    });

    it('accepts a body just under the size limit', async () => {
      const { app } = await createTestApp({ pets: [] });
      const name = 'x'.repeat(99 * 1024);
      const res = await post(app).send({ name, categoryId: 1 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: 1, name, categoryId: 1 });
    });
  });

  describe('listPets (GET /v1/pets)', () => {
    it.each(LIST_CASES)(
      '?%s → 400 bad_request naming %s, outside the contract',
      async (query, parameter) => {
        const { app } = await createTestApp({ pets: somePets(3) });
        const res = await request(app).get(`/v1/pets?${query}`).set(AUTH);
        const body = expectError(res, 400, 'bad_request');
        expect(body.message).toContain(`'${parameter}'`);
        expect(body.message).toContain('outside the contract');
      },
    );

    it.each([1, 100])('accepts the boundary limit=%i', async (limit) => {
      const pets = somePets(120);
      const { app } = await createTestApp({ pets });
      const res = await request(app).get(`/v1/pets?limit=${limit}`).set(AUTH);
      expect(res.status).toBe(200);
      expect(asPets(res.body).map((pet) => pet.id)).toEqual(
        pets.slice(0, limit).map((pet) => pet.id),
      );
    });
  });

  describe('getPet (GET /v1/pets/{petId})', () => {
    it.each(['abc', '1.5', '99999999999999999999', '-99999999999999999999', '%20'])(
      'petId %s → 400 bad_request naming petId',
      async (id) => {
        const { app } = await createTestApp({ pets: somePets(3) });
        const res = await request(app).get(`/v1/pets/${id}`).set(AUTH);
        const body = expectError(res, 400, 'bad_request');
        expect(body.message).toContain('petId');
      },
    );
  });

  describe('unknown paths', () => {
    it.each(['/v1/nope', '/nope', '/', '/v1', '/v1/pets/1/owner', '/v2/pets'])(
      'GET %s → 404 not_found',
      async (path) => {
        const { app } = await createTestApp({ pets: somePets(3) });
        const res = await request(app).get(path).set(AUTH);
        expectError(res, 404, 'not_found');
      },
    );

    it('POST to an unknown path → 404 not_found and creates nothing', async () => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const res = await request(app)
        .post('/v1/nope')
        .set(AUTH)
        .send({ name: 'Rex', categoryId: 1 });
      expectError(res, 404, 'not_found');
      expect(await state.petCount()).toBe(3);
    });
  });

  describe('wrong methods', () => {
    it.each([
      ['DELETE', '/v1/pets', ['GET', 'POST']],
      ['PUT', '/v1/pets', ['GET', 'POST']],
      ['PATCH', '/v1/pets', ['GET', 'POST']],
      ['PUT', '/v1/pets/1', ['GET']],
      ['PATCH', '/v1/pets/1', ['GET']],
      ['DELETE', '/v1/pets/1', ['GET']],
      ['POST', '/v1/pets/1', ['GET']],
    ] as const)('%s %s → 405 method_not_allowed, Allow: %j', async (method, path, allowed) => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const agent = request(app);
      const test =
        method === 'DELETE'
          ? agent.delete(path)
          : method === 'PUT'
            ? agent.put(path)
            : method === 'PATCH'
              ? agent.patch(path)
              : agent.post(path);
      const res = await test.set(AUTH).send({ name: 'Rex', categoryId: 1 });
      const body = expectError(res, 405, 'method_not_allowed');
      expect(body.message).toContain(method);
      const allow = String(res.headers.allow)
        .split(',')
        .map((m) => m.trim().toUpperCase())
        .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
        .sort();
      expect(allow).toEqual([...allowed].sort());
      expect(await state.petCount()).toBe(3);
    });
  });
});

describe('Accept', () => {
  it.each(['text/html', 'application/xml', 'application/json;q=0', 'image/png, text/*'])(
    'a create with Accept: %s → 406 not_acceptable, creating nothing',
    async (accept) => {
      const { app, state } = await createTestApp({ pets: somePets(3) });
      const res = await post(app).set('Accept', accept).send({ name: 'Rex', categoryId: 1 });
      expectError(res, 406, 'not_acceptable');
      expect(await state.petCount()).toBe(3);
    },
  );

  it.each(['application/json', '*/*', 'application/*', 'text/html, application/json;q=0.5', ''])(
    'Accept: %j is answered with JSON',
    async (accept) => {
      const { app } = await createTestApp({ pets: somePets(3) });
      const res = await request(app).get('/v1/pets').set(AUTH).set('Accept', accept);
      expect(res.status).toBe(200);
      expect(asPets(res.body)).toHaveLength(3);
    },
  );
});
