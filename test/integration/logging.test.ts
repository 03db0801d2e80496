import request from 'supertest';
import { AUTH, createTestApp } from '../helpers/test-app.js';

type LogLine = Record<string, unknown>;

/** The 'request' lines among captured logs. */
function requestLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.msg === 'request');
}

/**
 * Waits until `count` request lines are captured: the line is written when the response has
 * finished, which the client may see a moment before. Not a timing assertion: a wait with a limit.
 */
async function untilRequestLines(logs: readonly LogLine[], count: number): Promise<LogLine[]> {
  for (let i = 0; i < 200 && requestLines(logs).length < count; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // Let any extra line that would break "one per request" arrive before it is counted.
  await new Promise((resolve) => setImmediate(resolve));
  return requestLines(logs);
}

describe('request logs', () => {
  it('logs one line for listPets with id, method, path without query, status, duration', async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app).get('/v1/pets?limit=5&status=sold').set(AUTH).expect(200);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      requestId: res.headers['x-request-id'],
      method: 'GET',
      path: '/v1/pets',
      operationId: 'listPets',
      status: 200,
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(line?.durationMs).toBeGreaterThanOrEqual(0);
    expect(line?.level).toBe(30);
  });

  it('gives every response an X-Request-Id, different for each request', async () => {
    const { app, logs } = await createTestApp();
    const first = await request(app).get('/v1/pets').set(AUTH).expect(200);
    const second = await request(app).get('/v1/pets').set(AUTH).expect(200);
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    expect(typeof ids[0]).toBe('string');
    expect(ids[0]).not.toBe(ids[1]);
    const lines = await untilRequestLines(logs, 2);
    expect(lines.map((line) => line.requestId).sort()).toEqual([...ids].sort());
  });

  it("keeps a client's X-Request-Id", async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app)
      .get('/v1/pets')
      .set(AUTH)
      .set('X-Request-Id', 'client-id-123')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('client-id-123');
    const [line] = await untilRequestLines(logs, 1);
    expect(line?.requestId).toBe('client-id-123');
  });

  it('logs createPet with its status', async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Logged', categoryId: 2 })
      .expect(201);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: res.headers['x-request-id'],
      method: 'POST',
      path: '/v1/pets',
      operationId: 'createPet',
      status: 201,
    });
  });

  it('logs a createPet refused by validation with status 400', async () => {
    const { app, logs } = await createTestApp();
    await request(app).post('/v1/pets').set(AUTH).send({ categoryId: 2 }).expect(400);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ operationId: 'createPet', status: 400 });
  });

  it('logs getPet with the concrete path, also for an unknown id', async () => {
    const { app, logs } = await createTestApp();
    const found = await request(app).get('/v1/pets/1').set(AUTH).expect(200);
    const missing = await request(app).get('/v1/pets/987654').set(AUTH).expect(404);
    const lines = await untilRequestLines(logs, 2);
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.requestId === found.headers['x-request-id'])).toMatchObject({
      method: 'GET',
      path: '/v1/pets/1',
      operationId: 'getPet',
      status: 200,
    });
    expect(lines.find((line) => line.requestId === missing.headers['x-request-id'])).toMatchObject({
      path: '/v1/pets/987654',
      operationId: 'getPet',
      status: 404,
    });
  });

  it('logs a request refused with 401 with its operationId', async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app).get('/v1/pets?limit=2').expect(401);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: res.headers['x-request-id'],
      method: 'GET',
      path: '/v1/pets',
      operationId: 'listPets',
      status: 401,
    });
  });

  it('logs an unknown path without an operationId', async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app).get('/v1/nothing-here?x=1').set(AUTH).expect(404);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      requestId: res.headers['x-request-id'],
      method: 'GET',
      path: '/v1/nothing-here',
      status: 404,
    });
    expect(line?.operationId).toBeUndefined();
    expect(typeof line?.durationMs).toBe('number');
  });

  it('logs a wrong method without an operationId', async () => {
    const { app, logs } = await createTestApp();
    const res = await request(app).delete('/v1/pets').set(AUTH);
    expect(res.status).toBe(405);
    const lines = await untilRequestLines(logs, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'DELETE', path: '/v1/pets', status: 405 });
    expect(lines[0]?.operationId).toBeUndefined();
  });

  it('logs exactly one line per request over several requests', async () => {
    const { app, logs } = await createTestApp();
    const ids: unknown[] = [];
    for (const path of ['/v1/pets', '/v1/pets/2', '/v1/pets?limit=1', '/v1/unknown']) {
      const res = await request(app).get(path).set(AUTH);
      ids.push(res.headers['x-request-id']);
    }
    const lines = await untilRequestLines(logs, ids.length);
    expect(lines).toHaveLength(ids.length);
    expect(lines.map((line) => line.requestId)).toEqual(ids);
  });
});
