import request from 'supertest';
import { startMockServer, type MockServer } from '../../src/index.js';
import type { Proxy } from '../../src/proxy/proxy.js';
import type { Scenario } from '../../src/contract/scenario.js';
import { coverageOf } from '../helpers/coverage-http.js';
import { asPet, expectError, somePets } from '../helpers/http-matrix.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';
import { AUTH, createTestApp, shippedScenarios, type TestApp } from '../helpers/test-app.js';
import { json, proxyTo, scriptedUpstream, type LocalUpstream } from '../helpers/upstream.js';
import { backendOptions } from '../helpers/state-backend.js';

// Proxy mode against local upstreams only (127.0.0.1, port 0): another mock that keeps to the
// contract, and tiny scripted ones that break it.

const TOKEN = 'upstream-key';
const UPSTREAM_AUTH = { Authorization: `Bearer ${TOKEN}` };
const ABOVE_2_53 = '9007199254740993';
const INT64_MAX = '9223372036854775807';

/** The fixtures of the conforming upstream: a few pets, one with int64 values beyond 2^53. */
function fixturesText(): string {
  const pets = somePets(4).map((pet) => JSON.stringify(pet));
  pets.push(`{"id":${ABOVE_2_53},"name":"Big","categoryId":${INT64_MAX},"status":"sold"}`);
  return `[${pets.join(',')}]`;
}

let proxy: Proxy | undefined;
const upstreams: LocalUpstream[] = [];

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

/** A proxying app towards `target`. */
async function proxyApp(
  target: string,
  options: { strict?: boolean; scenarios?: ReadonlyMap<string, Scenario> } = {},
): Promise<TestApp> {
  proxy = await proxyTo(target, { proxyStrict: options.strict ?? false });
  return createTestApp({
    pets: [],
    proxy,
    ...(options.scenarios && { scenarios: options.scenarios }),
  });
}

async function scripted(script: Parameters<typeof scriptedUpstream>[0]): Promise<LocalUpstream> {
  const upstream = await scriptedUpstream(script);
  upstreams.push(upstream);
  return upstream;
}

function warnLines(logs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return logs.filter((line) => line.level === 40 && line.operationId !== undefined);
}

describe('proxy mode, towards another mock that keeps to the contract', () => {
  let dir: string;
  let real: MockServer;

  beforeAll(async () => {
    dir = makeTmpDir();
    const fixtures = writeTmpFile(dir, 'pets.json', fixturesText());
    real = await startMockServer({ ...backendOptions(), fixtures, apiKeys: [TOKEN] });
  });

  afterAll(async () => {
    await real.close();
    removeTmpDir(dir);
  });

  it.each([
    ['/pets', UPSTREAM_AUTH],
    ['/pets?limit=2&status=available', UPSTREAM_AUTH],
    ['/pets/2', UPSTREAM_AUTH],
    [`/pets/${ABOVE_2_53}`, UPSTREAM_AUTH],
    ['/pets/999', UPSTREAM_AUTH],
    ['/pets', { Authorization: 'Bearer not-the-key' }],
  ])('GET %s: the same status, body bytes and type as the real service', async (path, auth) => {
    const { app, state } = await proxyApp(real.url);
    const direct = await fetch(`${real.url}${path}`, { headers: auth });
    const directText = await direct.text();
    const proxied = await request(app).get(`/v1${path}`).set(auth);
    expect(proxied.status).toBe(direct.status);
    expect(proxied.text).toBe(directText);
    expect(proxied.headers['content-type']).toBe(direct.headers.get('content-type'));
    if (direct.status === 401) {
      expect(proxied.headers['www-authenticate']).toBe(direct.headers.get('www-authenticate'));
    }
    const [entry] = await state.journal(undefined, 1);
    expect(entry).toMatchObject({ status: direct.status, validationErrors: [] });
  });

  it('keeps int64 digits beyond 2^53 exact, in a list and in one pet', async () => {
    const { app } = await proxyApp(real.url);
    const list = await request(app).get('/v1/pets?status=sold').set(UPSTREAM_AUTH).expect(200);
    expect(list.text).toContain(`"id":${ABOVE_2_53},"name":"Big","categoryId":${INT64_MAX}`);
    const one = await request(app).get(`/v1/pets/${ABOVE_2_53}`).set(UPSTREAM_AUTH).expect(200);
    expect(one.text).toBe(
      `{"id":${ABOVE_2_53},"name":"Big","categoryId":${INT64_MAX},"status":"sold"}`,
    );
  });

  it('forwards a create: the real service stores it, and the proxied answer is its own', async () => {
    const { app, logs } = await proxyApp(real.url);
    const res = await request(app)
      .post('/v1/pets')
      .set(UPSTREAM_AUTH)
      .send({ name: 'Proxied', categoryId: 7, status: 'pending' })
      .expect(201);
    const created = asPet(res.body);
    expect(created).toMatchObject({ name: 'Proxied', categoryId: 7, status: 'pending' });
    const stored = await fetch(`${real.url}/pets/${created.id}`, { headers: UPSTREAM_AUTH });
    expect(await stored.text()).toBe(res.text);
    expect(warnLines(logs)).toEqual([]);
    await real.reset();
  });

  it('answers HEAD as the real service answers GET, without a body', async () => {
    const { app } = await proxyApp(real.url);
    const get = await request(app).get('/v1/pets/1').set(UPSTREAM_AUTH).expect(200);
    const head = await request(app).head('/v1/pets/1').set(UPSTREAM_AUTH).expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text).toBeFalsy();
  });
});

describe('proxy mode, towards a service that breaks the contract', () => {
  const LOST = [{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' }];

  it('relays a pet with status "lost" unchanged, journaling and logging the violation', async () => {
    const upstream = await scripted({ 'GET /pets': json(200, LOST) });
    const { app, state, logs } = await proxyApp(upstream.url);
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.text).toBe(JSON.stringify(LOST));
    const [entry] = await state.journal(undefined, 1);
    expect(entry?.status).toBe(200);
    expect(entry?.validationErrors).toEqual([
      expect.stringMatching(/^\/response\/0\/status must be equal to one of the allowed values/),
    ]);
    const [warning] = warnLines(logs);
    expect(warning).toMatchObject({ operationId: 'listPets', upstreamStatus: 200 });
    expect(JSON.stringify(warning?.violations)).toContain('/response/0/status');
  });

  it('relays an id given as a string, naming /response/id', async () => {
    const upstream = await scripted({
      'GET /pets/1': json(200, { id: '1', name: 'Rex', categoryId: 1 }),
    });
    const { app, state } = await proxyApp(upstream.url);
    const res = await request(app).get('/v1/pets/1').set(AUTH).expect(200);
    expect(res.body).toEqual({ id: '1', name: 'Rex', categoryId: 1 });
    expect((await state.journal(undefined, 1))[0]?.validationErrors).toEqual([
      '/response/id must be integer',
    ]);
  });

  it.each([
    [418, json(418, { code: 'teapot', message: 'I am one', status: 418 })],
    [500, { status: 500, headers: { 'Content-Type': 'text/html' }, body: '<h1>oops</h1>' }],
  ])('relays an undocumented status %i as it came, naming the status', async (status, answer) => {
    const upstream = await scripted({ 'GET /pets': answer });
    const { app, state } = await proxyApp(upstream.url);
    const res = await request(app).get('/v1/pets').set(AUTH);
    expect(res.status).toBe(status);
    expect(res.text).toBe(answer.body);
    expect((await state.journal(undefined, 1))[0]?.validationErrors).toEqual([
      `/response status ${status} is not documented for listPets (200, 401)`,
    ]);
  });

  it.each([
    [
      'text/plain',
      { status: 200, headers: { 'Content-Type': 'text/plain' }, body: '[]' },
      'text/plain',
    ],
    [
      'no JSON',
      { status: 200, headers: { 'Content-Type': 'application/json' }, body: '[{' },
      'not JSON',
    ],
    ['a JSON string', json(200, '"pets"'), 'must be a JSON object or array'],
  ])(
    'relays a body that is %s byte for byte, naming the problem',
    async (_label, answer, named) => {
      const upstream = await scripted({ 'GET /pets': answer });
      const { app, state } = await proxyApp(upstream.url);
      const res = await request(app)
        .get('/v1/pets')
        .set(AUTH)
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          r.on('end', () => {
            done(null, text);
          });
        });
      expect(res.status).toBe(200);
      expect(res.body).toBe(answer.body);
      expect((await state.journal(undefined, 1))[0]?.validationErrors).toEqual([
        expect.stringContaining(named),
      ]);
    },
  );

  it('names an int64 beyond its range, which the validator sees rounded, and keeps its digits', async () => {
    const text = '[{"id":9223372036854775808,"name":"Rex","categoryId":1}]';
    const upstream = await scripted({ 'GET /pets': json(200, text) });
    const { app, state } = await proxyApp(upstream.url);
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.text).toBe(text);
    expect((await state.journal(undefined, 1))[0]?.validationErrors).toEqual([
      expect.stringMatching(/^\/response\/0\/id must be an int64/),
    ]);
  });
});

describe('proxy mode, --proxy-strict', () => {
  it('answers 502 contract_violation naming every violation, with none of the upstream headers', async () => {
    const upstream = await scripted({
      'GET /pets': json(200, [{ id: '1', name: 'Rex', categoryId: 1, status: 'lost' }], {
        ETag: '"v1"',
        'Cache-Control': 'max-age=60',
      }),
    });
    const { app, state, logs } = await proxyApp(upstream.url, { strict: true });
    const res = await request(app).get('/v1/pets').set(AUTH);
    const body = expectError(res, 502, 'contract_violation');
    expect(body.message).toContain('listPets');
    expect(body.message).toContain('/response/0/id');
    expect(body.message).toContain('/response/0/status');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
    const [entry] = await state.journal(undefined, 1);
    expect(entry?.status).toBe(502);
    expect(entry?.validationErrors).toHaveLength(2);
    expect(warnLines(logs)).toHaveLength(1);
  });

  it('answers 502 for an undocumented status, and passes a valid answer through', async () => {
    const upstream = await scripted({
      'GET /pets': json(503, { code: 'down', message: 'maintenance', status: 503 }),
      'GET /pets/1': json(200, { id: 1, name: 'Rex', categoryId: 1 }),
    });
    const { app } = await proxyApp(upstream.url, { strict: true });
    const refused = await request(app).get('/v1/pets').set(AUTH);
    expect(expectError(refused, 502, 'contract_violation').message).toContain('status 503');
    const res = await request(app).get('/v1/pets/1').set(AUTH).expect(200);
    expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
  });
});

describe('proxy mode: what is forwarded, and what comes back', () => {
  it("forwards the client's method, path, query, body, Authorization and Content-Type only", async () => {
    const upstream = await scripted({
      'POST /pets': json(201, `{"id":5,"name":"Rex","categoryId":${ABOVE_2_53}}`),
    });
    const { app } = await proxyApp(upstream.url);
    await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('X-Mock-Session', 'w1')
      .set('Cookie', 'session=secret')
      .set('Connection', 'keep-alive, X-Hop')
      .set('X-Hop', 'only for this connection')
      .set('X-Request-Id', 'req-42')
      .type('application/json')
      .send(`{"name":"Rex","categoryId":${ABOVE_2_53}}`)
      .expect(201);
    const [sent] = upstream.received;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/pets');
    expect(sent?.body).toBe(`{"name":"Rex","categoryId":${ABOVE_2_53}}`);
    expect(sent?.headers).toMatchObject({
      authorization: AUTH.Authorization,
      'content-type': 'application/json',
      'x-request-id': 'req-42',
      via: '1.1 petstore-mock',
      'accept-encoding': 'identity',
    });
    for (const name of ['x-mock-session', 'cookie', 'x-hop', 'prefer']) {
      expect(sent?.headers[name]).toBeUndefined();
    }
  });

  it('passes the query as sent', async () => {
    const upstream = await scripted({ default: json(200, []) });
    const { app } = await proxyApp(upstream.url);
    await request(app).get('/v1/pets?status=sold&limit=5').set(AUTH).expect(200);
    expect(upstream.received[0]?.url).toBe('/v1/pets?status=sold&limit=5');
  });

  it('drops hop-by-hop headers, Set-Cookie and Server; keeps the rest; says Via', async () => {
    const upstream = await scripted({
      'GET /pets': json(200, [], {
        'Set-Cookie': 'staging-session=secret',
        Server: 'staging/1.2.3',
        'X-Powered-By': 'something',
        Connection: 'X-Hop',
        'X-Hop': 'for one connection',
        'Cache-Control': 'no-store',
        'X-Upstream-Trace': 'abc',
        'Access-Control-Allow-Origin': '*',
      }),
    });
    const { app } = await proxyApp(upstream.url);
    const res = await request(app)
      .get('/v1/pets')
      .set(AUTH)
      .set('Origin', 'http://localhost:3000')
      .set('X-Request-Id', 'mine')
      .expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-hop']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-upstream-trace']).toBe('abc');
    expect(res.headers.via).toBe('1.1 petstore-mock');
    expect(res.headers['x-request-id']).toBe('mine');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});

describe('proxy mode: scenarios, Prefer and sessions', () => {
  it('a forced answer is the mock’s: the real service is not asked', async () => {
    const upstream = await scripted({ default: json(200, []) });
    const { app } = await proxyApp(upstream.url);
    expectError(
      await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=401'),
      401,
      'unauthorized',
    );
    const empty = await request(app)
      .get('/v1/pets')
      .set(AUTH)
      .set('X-Mock-Scenario', 'empty-catalogue')
      .expect(200);
    expect(empty.body).toEqual([]);
    expectError(
      await request(app)
        .post('/v1/pets')
        .set(AUTH)
        .set('Prefer', 'code=400')
        .send({ name: 'x', categoryId: 1 }),
      400,
      'bad_request',
    );
    expect(upstream.received).toEqual([]);
  });

  it('the mock’s own answer that breaks the contract stays a 500, not a relayed answer', async () => {
    const upstream = await scripted({ default: json(200, []) });
    const broken: Scenario = {
      name: 'broken',
      description: 'a body no load-time check has seen',
      rules: [{ operations: ['listPets'], status: 200, body: [{ id: 'x' }] }],
      source: 'test',
    };
    const scenarios = new Map([...shippedScenarios, ['broken', broken]]);
    const { app } = await proxyApp(upstream.url, { scenarios });
    const res = await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Scenario', 'broken');
    expectError(res, 500, 'internal_error');
    expect(upstream.received).toEqual([]);
  });

  it('a delay, or a forced 2xx without a body, is answered by the real service after all', async () => {
    const upstream = await scripted({
      default: json(200, [{ id: 1, name: 'Rex', categoryId: 1 }]),
    });
    const late: Scenario = {
      name: 'late',
      description: 'a short delay',
      rules: [{ operations: 'all', delay: { fixed: 20 } }],
      source: 'test',
    };
    const scenarios = new Map([...shippedScenarios, ['late', late]]);
    const { app, state } = await proxyApp(upstream.url, { scenarios });
    await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Scenario', 'late').expect(200);
    await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=200').expect(200);
    expect(upstream.received).toHaveLength(2);
    expect((await state.journal(undefined, 2)).map((entry) => entry.scenario)).toEqual([
      'Prefer: code=200',
      'scenario late',
    ]);
  });

  it('X-Mock-Session keeps its own journal; the real service sees no session', async () => {
    const upstream = await scripted({ default: json(200, []) });
    const { app, state } = await proxyApp(upstream.url);
    await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Session', 'worker-1').expect(200);
    expect(upstream.received[0]?.headers['x-mock-session']).toBeUndefined();
    expect(await state.journal('worker-1', 5)).toHaveLength(1);
    expect(await state.journal(undefined, 5)).toHaveLength(0);
  });

  it('auth is still checked first: no credentials never reach the real service', async () => {
    const upstream = await scripted({ default: json(200, []) });
    const { app } = await proxyApp(upstream.url);
    expectError(await request(app).get('/v1/pets'), 401, 'unauthorized');
    expectError(await request(app).get('/v1/pets?limit=0').set(AUTH), 400, 'bad_request');
    expect(upstream.received).toEqual([]);
  });
});

describe('proxy mode: coverage counts what the real service answered, and how it broke the contract', () => {
  it.each([
    ['lenient', false, [200, 200, 503, 201]],
    ['strict', true, [502, 200, 502, 502]],
  ])(
    '%s: by the real service’s status (not the 502 sent), with the answers that broke it',
    async (_mode, strict, sent) => {
      const upstream = await scripted({
        'GET /pets': json(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' }]),
        'GET /pets/1': json(200, { id: 1, name: 'Rex', categoryId: 1 }),
        'GET /pets/2': json(503, { code: 'down', message: 'maintenance', status: 503 }),
        'POST /pets': { status: 201, headers: { 'Content-Type': 'text/plain' }, body: 'made' },
      });
      const { app } = await proxyApp(upstream.url, { strict });
      const statuses = [
        (await request(app).get('/v1/pets').set(AUTH)).status,
        (await request(app).get('/v1/pets/1').set(AUTH)).status,
        (await request(app).get('/v1/pets/2').set(AUTH)).status,
        (await request(app).post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 })).status,
      ];
      expect(statuses).toEqual(sent);
      const report = await coverageOf(app);
      // A status answered only with broken answers is still covered; the violations say so.
      expect(report.summary).toEqual({ documented: 8, covered: 3, percent: 38, violations: 3 });
      const counted = Object.fromEntries(
        report.operations.map((op) => [
          op.operationId,
          Object.fromEntries(
            Object.entries(op.statuses)
              .filter(([, s]) => s.count > 0)
              .map(([status, s]) => [status, [s.documented, s.count, s.violations]]),
          ),
        ]),
      );
      expect(counted).toEqual({
        listPets: { '200': [true, 1, 1] },
        getPet: { '200': [true, 1, 0], '503': [false, 1, 1] },
        createPet: { '201': [true, 1, 1] },
      });
    },
  );

  it('a forced answer is the mock’s own: no violation, whatever the real service would say', async () => {
    const upstream = await scripted({ default: json(500, 'broken') });
    const { app } = await proxyApp(upstream.url, { strict: true });
    await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=401').expect(401);
    const report = await coverageOf(app);
    expect(report.summary.violations).toBe(0);
    expect(report.operations[0]?.statuses['401']).toMatchObject({ count: 1, forced: 1 });
    expect(upstream.received).toEqual([]);
  });
});
