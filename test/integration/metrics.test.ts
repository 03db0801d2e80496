import type { Express } from 'express';
import request from 'supertest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { expectError } from '../helpers/http-matrix.js';
import { parsePrometheusText, sampleValue, type Family } from '../helpers/prometheus-text.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';
import { AUTH, createTestApp } from '../helpers/test-app.js';

/** GET /__admin/metrics, parsed (it throws on a line that breaks the format). */
async function scrape(app: Express | string, token?: string): Promise<Map<string, Family>> {
  const call = request(app).get('/__admin/metrics');
  if (token !== undefined) call.set('Authorization', `Bearer ${token}`);
  const res = await call;
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(res.text);
}

const requests = (families: Map<string, Family>, operation: string, status: string) =>
  sampleValue(families, 'petstore_mock_requests_total', { operation, status }) ?? 0;

describe('the Prometheus text reader of these tests', () => {
  it('reads a family with its samples and refuses what breaks the format', () => {
    const families = parsePrometheusText(
      '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1",y="q\\"uote"} 3\n',
    );
    expect(sampleValue(families, 'a_total', { y: 'q"uote' })).toBe(3);
    for (const bad of [
      'a_total 3\n', // no TYPE
      '# TYPE a_total counter\na_total{x=1} 3\n', // unquoted label
      '# TYPE a_total counter\na_total three\n', // not a number
      '# TYPE a_total counter\na_total 1\na_total 2\n', // the same series twice
      '# TYPE a_total counter\na_total 1', // no final newline
    ]) {
      expect(() => parsePrometheusText(bad)).toThrow();
    }
  });
});

describe('GET /__admin/metrics', () => {
  it('answers the Prometheus text format with each family typed and described', async () => {
    const { app } = await createTestApp();
    const families = await scrape(app);
    const types = Object.fromEntries(
      [...families.values()]
        .filter((family) => family.name.startsWith('petstore_mock_'))
        .map((family) => [family.name, family.type]),
    );
    expect(types).toEqual({
      petstore_mock_requests_total: 'counter',
      petstore_mock_request_duration_seconds: 'histogram',
      petstore_mock_state_round_trips_total: 'counter',
      petstore_mock_state_round_trip_errors_total: 'counter',
      petstore_mock_sessions: 'gauge',
    });
    for (const family of families.values()) expect(family.help).not.toBe('');
    // The process's default metrics.
    expect(families.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(families.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
  });

  it('counts pet API requests by operation and status, and their latency by operation', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get('/v1/pets/1').set(AUTH).expect(200);
    await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Rex', categoryId: 1, status: 'available' })
      .expect(201);
    await request(app).get('/v1/pets').expect(401);
    await request(app).get('/v1/nothing').set(AUTH).expect(404);
    const families = await scrape(app);
    expect({
      list200: requests(families, 'listPets', '200'),
      list401: requests(families, 'listPets', '401'),
      get200: requests(families, 'getPet', '200'),
      create201: requests(families, 'createPet', '201'),
      none404: requests(families, 'none', '404'),
    }).toEqual({ list200: 2, list401: 1, get200: 1, create201: 1, none404: 1 });
    const latency = 'petstore_mock_request_duration_seconds';
    expect(sampleValue(families, `${latency}_count`, { operation: 'listPets' })).toBe(3);
    expect(sampleValue(families, `${latency}_bucket`, { operation: 'listPets', le: '+Inf' })).toBe(
      3,
    );
    expect(sampleValue(families, `${latency}_sum`, { operation: 'listPets' })).toBeGreaterThan(0);
    // Admin calls are not pet API requests.
    const again = await scrape(app);
    expect(requests(again, 'listPets', '200')).toBe(2);
  });

  it('moves between scrapes as requests come', async () => {
    const { app } = await createTestApp();
    const before = requests(await scrape(app), 'listPets', '200');
    for (let i = 0; i < 5; i += 1) await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(requests(await scrape(app), 'listPets', '200')).toBe(before + 5);
  });

  it('keeps one registry per app: two mocks in one process count apart', async () => {
    const a = await createTestApp();
    const b = await createTestApp();
    await request(a.app).get('/v1/pets').set(AUTH).expect(200);
    await request(a.app).get('/v1/pets').set(AUTH).expect(200);
    await request(b.app).get('/v1/pets/1').set(AUTH).expect(200);
    const [ofA, ofB] = [await scrape(a.app), await scrape(b.app)];
    expect(requests(ofA, 'listPets', '200')).toBe(2);
    expect(requests(ofA, 'getPet', '200')).toBe(0);
    expect(requests(ofB, 'listPets', '200')).toBe(0);
    expect(requests(ofB, 'getPet', '200')).toBe(1);
  });

  it('gives the live sessions, and the memory backend at 0 round trips', async () => {
    const { app } = await createTestApp();
    await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Session', 'w1').expect(200);
    await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Session', 'w2').expect(200);
    const families = await scrape(app);
    expect(sampleValue(families, 'petstore_mock_sessions', { backend: 'memory' })).toBe(2);
    const backend = { backend: 'memory' };
    expect(sampleValue(families, 'petstore_mock_state_round_trips_total', backend)).toBe(0);
    expect(sampleValue(families, 'petstore_mock_state_round_trip_errors_total', backend)).toBe(0);
  });

  it('needs the admin token like every admin call', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    expectError(await request(app).get('/__admin/metrics'), 401, 'unauthorized');
    await scrape(app, 's3cret');
  });

  it('is not there with noAdmin', async () => {
    const { app } = await createTestApp({ noAdmin: true });
    await request(app).get('/__admin/metrics').expect(404);
  });
});

describe('metrics of a mock on Redis', () => {
  let redis: TestRedis;
  let mock: MockServer;

  beforeAll(async () => {
    redis = await startRedis();
    mock = await startMockServer({
      stateUrl: redis.url,
      statePrefix: `metrics-${String(process.pid)}:`,
      stateTimeout: 500,
    });
  });

  afterAll(async () => {
    await mock.close();
    await redis.close();
  });

  it("counts Redis's round trips and their errors; health and calls answer 503 while it is away", async () => {
    const backend = { backend: 'redis' };
    const trips = (f: Map<string, Family>) =>
      sampleValue(f, 'petstore_mock_state_round_trips_total', backend) ?? 0;
    const errors = (f: Map<string, Family>) =>
      sampleValue(f, 'petstore_mock_state_round_trip_errors_total', backend) ?? 0;

    const before = await scrape(mock.origin);
    await request(mock.origin)
      .post('/v1/pets')
      .set(AUTH)
      .set('X-Mock-Session', 'm1')
      .send({ name: 'Rex', categoryId: 1 })
      .expect(201);
    const served = await scrape(mock.origin);
    // beginCall and createPet at least; the scrape's own sessions read too.
    expect(trips(served) - trips(before)).toBeGreaterThanOrEqual(2);
    expect(errors(served)).toBe(0);
    expect(sampleValue(served, 'petstore_mock_sessions', backend)).toBe(1);

    await redis.stop();
    const health = await request(mock.origin).get('/__admin/health');
    const body = expectError(health, 503, 'state_unavailable');
    expect(body.message).toContain(redis.url);
    expect(health.headers['retry-after']).toBe('1');
    expectError(await request(mock.origin).get('/v1/pets').set(AUTH), 503, 'state_unavailable');
    const away = await scrape(mock.origin);
    expect(errors(away)).toBeGreaterThanOrEqual(2);
    // Left out rather than stale, and the scrape itself still answers.
    expect(sampleValue(away, 'petstore_mock_sessions')).toBeUndefined();
    expect(requests(away, 'listPets', '503')).toBe(1);

    await redis.start();
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt += 1) {
      status = (await request(mock.origin).get('/__admin/health')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
  });
});
