import type { Express } from 'express';
import request from 'supertest';
import type { Test } from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { somePets } from '../helpers/http-matrix.js';

const LOCAL = 'http://localhost:3000';
const REQUESTED_HEADERS = 'authorization,prefer,x-mock-scenario,x-mock-session,content-type';

function headerList(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item !== '')
    : [];
}

function preflight(app: Express, origin: string, method = 'GET'): Test {
  return request(app)
    .options('/v1/pets')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', REQUESTED_HEADERS);
}

/** One request per kind of answer: success, client errors, an unknown path, a wrong method. */
const RESPONSES: readonly [label: string, send: (app: Express) => Test, status: number][] = [
  ['listPets 200', (app) => request(app).get('/v1/pets').set(AUTH), 200],
  ['getPet 200', (app) => request(app).get('/v1/pets/1').set(AUTH), 200],
  [
    'createPet 201',
    (app) => request(app).post('/v1/pets').set(AUTH).send({ name: 'n', categoryId: 1 }),
    201,
  ],
  ['createPet 400', (app) => request(app).post('/v1/pets').set(AUTH).send({ name: 'n' }), 400],
  ['listPets 401', (app) => request(app).get('/v1/pets'), 401],
  ['getPet 404', (app) => request(app).get('/v1/pets/99').set(AUTH), 404],
  ['unknown path 404', (app) => request(app).get('/nope'), 404],
  ['wrong method 405', (app) => request(app).delete('/v1/pets').set(AUTH), 405],
  [
    'too large 413',
    (app) =>
      request(app)
        .post('/v1/pets')
        .set(AUTH)
        .send({ name: 'x'.repeat(200 * 1024), categoryId: 1 }),
    413,
  ],
];

describe('CORS', () => {
  it('answers a preflight from a local origin with 204, without Authorization', async () => {
    const { app, logs } = await createTestApp({ pets: somePets(2) });
    const res = await preflight(app, LOCAL);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(LOCAL);
    expect(headerList(res.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(headerList(REQUESTED_HEADERS)),
    );
    expect(headerList(res.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(res.text).toBe('');
    expect(logs.filter((line) => line.level === 40)).toHaveLength(0);
  });

  it('answers a preflight for POST and for getPet from 127.0.0.1', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const origin = 'http://127.0.0.1:5173';
    const post = await preflight(app, origin, 'POST');
    expect(post.status).toBe(204);
    expect(post.headers['access-control-allow-origin']).toBe(origin);
    const get = await request(app)
      .options('/v1/pets/1')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(get.status).toBe(204);
    expect(get.headers['access-control-allow-origin']).toBe(origin);
  });

  it('echoes a local origin on an actual request', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const res = await request(app).get('/v1/pets').set(AUTH).set('Origin', LOCAL);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(LOCAL);
  });

  // The README's default: http://localhost:*, http://127.0.0.1:*, http://[::1]:*.
  it.each([
    'http://localhost:8080',
    'http://127.0.0.1:4200',
    'http://[::1]:5173',
    'http://[::1]:9',
  ])(
    'allows the local origin %s by default, on a preflight and an actual request',
    async (origin) => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const pre = await preflight(app, origin);
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(origin);
      const res = await request(app).get('/v1/pets').set(AUTH).set('Origin', origin);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    },
  );

  it('gives a non-local origin no Access-Control-Allow-Origin by default', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const pre = await preflight(app, 'https://evil.example');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await request(app).get('/v1/pets').set(AUTH).set('Origin', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['http://localhost.evil.example', 'http://evil.example/localhost', 'null'])(
    'does not mistake %s for a local origin',
    async (origin) => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets').set(AUTH).set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('with corsOrigin [https://app.example] allows that origin and not localhost', async () => {
    const { app } = await createTestApp({
      pets: somePets(2),
      corsOrigin: ['https://app.example'],
    });
    const allowed = await preflight(app, 'https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    const actual = await request(app)
      .get('/v1/pets')
      .set(AUTH)
      .set('Origin', 'https://app.example');
    expect(actual.headers['access-control-allow-origin']).toBe('https://app.example');

    const local = await preflight(app, LOCAL);
    expect(local.headers['access-control-allow-origin']).toBeUndefined();
    const other = await preflight(app, 'https://other.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['https://evil.example', LOCAL, 'https://app.example'])(
    'with corsOrigin [*] allows %s',
    async (origin) => {
      const { app } = await createTestApp({ pets: somePets(2), corsOrigin: ['*'] });
      const pre = await preflight(app, origin);
      expect(pre.status).toBe(204);
      expect(['*', origin]).toContain(pre.headers['access-control-allow-origin']);
      const res = await request(app).get('/v1/pets').set(AUTH).set('Origin', origin);
      expect(['*', origin]).toContain(res.headers['access-control-allow-origin']);
    },
  );

  it('exposes Deprecation, Sunset and Link to the browser', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const res = await request(app).get('/v1/pets/1').set(AUTH).set('Origin', LOCAL);
    expect(res.status).toBe(200);
    expect(headerList(res.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['deprecation', 'sunset', 'link']),
    );
  });
});

describe('response headers', () => {
  it.each(RESPONSES)('%s: no X-Powered-By, no ETag, an X-Request-Id', async (_l, send, status) => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const res = await send(app);
    expect(res.status).toBe(status);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[\w.:-]{1,128}$/);
  });

  it('gives no X-Powered-By on a preflight either', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const res = await preflight(app, LOCAL);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('gives each request its own X-Request-Id', async () => {
    const { app } = await createTestApp({ pets: somePets(2) });
    const first = await request(app).get('/v1/pets').set(AUTH);
    const second = await request(app).get('/v1/pets').set(AUTH);
    expect(typeof first.headers['x-request-id']).toBe('string');
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it.each([
    ['listPets 200', (app: Express) => request(app).get('/v1/pets').set(AUTH)],
    ['listPets 401', (app: Express) => request(app).get('/v1/pets')],
    ['unknown path 404', (app: Express) => request(app).get('/nope').set(AUTH)],
  ])('echoes a sane client X-Request-Id (%s)', async (_label, send) => {
    const { app, logs } = await createTestApp({ pets: somePets(2) });
    const res = await send(app).set('X-Request-Id', 'client-req.42:abc');
    expect(res.headers['x-request-id']).toBe('client-req.42:abc');
    expect(logs.some((line) => line.requestId === 'client-req.42:abc')).toBe(true);
  });

  it.each(['has spaces in it', 'x'.repeat(200), 'semi;colon', '<script>'])(
    'replaces an insane client X-Request-Id %j with its own',
    async (given) => {
      const { app } = await createTestApp({ pets: somePets(2) });
      const res = await request(app).get('/v1/pets').set(AUTH).set('X-Request-Id', given);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).not.toBe(given);
      expect(res.headers['x-request-id']).toMatch(/^[\w.:-]{1,128}$/);
    },
  );
});
