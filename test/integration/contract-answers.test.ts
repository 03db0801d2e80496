import { join } from 'node:path';
import request from 'supertest';
import { loadContract } from '../../src/contract/load-contract.js';
import { loadScenarios } from '../../src/contract/load-scenarios.js';
import { defaultScenariosDir } from '../../src/util/paths.js';
import { coverageOf } from '../helpers/coverage-http.js';
import { NO_RESOURCES } from '../helpers/own-contract.js';
import { activate, asJournal, expectError, petHeaders } from '../helpers/scenario-http.js';
import { AUTH, createTestApp, isLive, type TestAppOptions } from '../helpers/test-app.js';

// Operations the mock has no handler for are answered from the contract: its example, or data
// generated from its schema with a seeded faker, validated like every answer. The store's orders
// and animals would be resources (test/integration/resources.test.ts): here they are not.
const store = loadContract(join(import.meta.dirname, '..', 'fixtures', 'store-contract.yaml'));
const storeScenarios = loadScenarios(defaultScenariosDir, store, { builtIn: true });

async function storeApp(options: TestAppOptions = {}) {
  return createTestApp({
    contract: store,
    scenarios: storeScenarios,
    resources: NO_RESOURCES,
    ...options,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value;
}

const PATHS_OF_ANSWERS = [
  ['listOrders', 'get', '/v1/store/orders', 'example'],
  ['getInventory', 'get', '/v1/store/inventory', 'example'],
  ['deleteOrder', 'delete', '/v1/store/orders/3', 'example'],
  ['getOrder', 'get', '/v1/store/orders/3', 'generated'],
  ['getStoreProfile', 'get', '/v1/store/profile', 'generated'],
  ['getAnimal', 'get', '/v1/store/animals/1', 'generated'],
  ['listAnimals', 'get', '/v1/store/animals', 'generated'],
] as const;

describe('operations with no handler, answered from the contract', () => {
  it.each(PATHS_OF_ANSWERS)(
    '%s is answered (%s %s), its source in X-Mock-Answer: %s',
    async (_id, method, path, source) => {
      const { app, logs } = await storeApp();
      const res = await request(app)[method](path).set(AUTH);
      expect(res.status).toBe(method === 'delete' ? 204 : 200);
      expect(res.headers['x-mock-answer']).toBe(source);
      // The validator checked it: a breach would have been a 500 and an error line.
      expect(logs.filter((line) => line.level === 50)).toEqual([]);
    },
  );

  it("answers a media type's example as it is, writeOnly fields left out", async () => {
    const { app } = await storeApp();
    const res = await request(app).get('/v1/store/orders').set(AUTH).expect(200);
    expect(res.body).toEqual([
      {
        id: 1,
        petId: 7,
        quantity: 1,
        shipDate: '2026-03-01T10:00:00Z',
        status: 'placed',
        complete: false,
      },
      {
        id: 2,
        petId: 9,
        quantity: 2,
        shipDate: '2026-03-02T10:00:00Z',
        status: 'delivered',
        complete: true,
      },
    ]);
  });

  it('answers the first of `examples` that has a value (a $ref followed, externalValue not fetched)', async () => {
    const { app } = await storeApp();
    const res = await request(app).get('/v1/store/inventory').set(AUTH).expect(200);
    expect(res.body).toEqual({ available: 12, pending: 3, sold: 40 });
  });

  it('answers 204 with no body', async () => {
    const { app } = await storeApp();
    const res = await request(app).delete('/v1/store/orders/3').set(AUTH).expect(204);
    expect(res.text).toBe('');
  });

  it('generates an answer that keeps to the schema: readOnly present, writeOnly absent', async () => {
    const { app } = await storeApp();
    const order = record((await request(app).get('/v1/store/orders/3').set(AUTH).expect(200)).body);
    expect(typeof order.id).toBe('number');
    expect(order).not.toHaveProperty('paymentToken');
    expect(order.petId).toEqual(expect.any(Number));
    expect(order.quantity).toBeGreaterThanOrEqual(1);
    expect(order.quantity).toBeLessThanOrEqual(10);
    expect(['placed', 'approved', 'delivered']).toContain(order.status);
    expect(typeof order.shipDate === 'string' && !Number.isNaN(Date.parse(order.shipDate))).toBe(
      true,
    );
    // A property's default is preferred to a generated value.
    expect(order.complete).toBe(false);
  });

  it('accepts a request with a writeOnly field, and answers without it', async () => {
    const { app } = await storeApp();
    const res = await request(app)
      .post('/v1/store/orders')
      .set(AUTH)
      .send({ petId: 7, quantity: 2, paymentToken: 'tok_secret' })
      .expect(201);
    expect(res.headers['x-mock-answer']).toBe('generated');
    expect(res.body).not.toHaveProperty('paymentToken');
    expect(res.text).not.toContain('tok_secret');
  });

  it('refuses a readOnly field in a request, as the validator does for every operation', async () => {
    const { app } = await storeApp();
    const res = await request(app)
      .post('/v1/store/orders')
      .set(AUTH)
      .send({ id: 5, petId: 7, quantity: 2 });
    expect(expectError(res, 400, 'bad_request').message).toContain('id');
  });

  it('keeps to every keyword of a schema-only answer', async () => {
    const { app } = await storeApp();
    const profile = record(
      (await request(app).get('/v1/store/profile').set(AUTH).expect(200)).body,
    );
    expect(profile).not.toHaveProperty('secret');
    expect(profile.code).toMatch(/^[A-Z]{3}-\d{4}$/);
    expect(profile.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(profile.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(profile.ip).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
    expect(profile.rating).toBeGreaterThan(0);
    expect(profile.rating).toBeLessThan(5);
    expect(profile.currency).toBe('EUR');
    expect(profile.country).toBe('NL');
    expect(profile.status).not.toBe('closed');
    // anyOf: an email, or an object with a phone.
    const { contact } = profile;
    if (typeof contact === 'string') expect(contact).toContain('@');
    else expect(record(contact).phone).toMatch(/^\+\d{6,12}$/);
    const prices = profile.prices;
    expect(Array.isArray(prices) && new Set(prices).size === prices.length).toBe(true);
    expect(Object.keys(record(profile.manager))).not.toContain('extra');
    const address = record(profile.address);
    expect([typeof address.street, typeof address.city]).toEqual(['string', 'string']);
  });

  it('bounds a recursive schema', async () => {
    const { app } = await storeApp();
    const profile = record(
      (await request(app).get('/v1/store/profile').set(AUTH).expect(200)).body,
    );
    let depth = 0;
    for (let node: unknown = profile.rootCategory; isRecord(node); depth += 1) {
      node = Array.isArray(node.children) ? node.children[0] : undefined;
    }
    expect(depth).toBeGreaterThan(1);
    expect(depth).toBeLessThan(6);
  });
});

describe('generated answers are deterministic', () => {
  async function getBody(path: string, seed?: number): Promise<unknown> {
    const { app } = await storeApp(seed === undefined ? {} : { seed });
    return (await request(app).get(path).set(AUTH).expect(200)).body;
  }

  it('the same seed gives the same body, in two apps', async () => {
    expect(await getBody('/v1/store/profile', 7)).toEqual(await getBody('/v1/store/profile', 7));
    // Without --seed, the seed is 1.
    expect(await getBody('/v1/store/orders/3')).toEqual(await getBody('/v1/store/orders/3', 1));
  });

  it('another seed gives another body', async () => {
    expect(await getBody('/v1/store/profile', 1)).not.toEqual(
      await getBody('/v1/store/profile', 2),
    );
  });

  it('every request of an app gets the same body, whatever was asked before', async () => {
    const { app } = await storeApp();
    const first: unknown = (await request(app).get('/v1/store/orders/1').set(AUTH)).body;
    await request(app).get('/v1/store/profile').set(AUTH).expect(200);
    const second: unknown = (await request(app).get('/v1/store/orders/2').set(AUTH)).body;
    expect(second).toEqual(first);
  });
});

describe('a oneOf with a discriminator', () => {
  it('answers a mapped branch with its mapping key, and no field of the other branch', async () => {
    const kinds = new Set<unknown>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { app } = await storeApp({ seed });
      const animal = record(
        (await request(app).get('/v1/store/animals/1').set(AUTH).expect(200)).body,
      );
      kinds.add(animal.petType);
      expect(['dog', 'cat']).toContain(animal.petType);
      expect(animal).not.toHaveProperty('microchip');
      const own = animal.petType === 'dog' ? ['barks', 'packSize'] : ['purrs', 'indoor'];
      const other = animal.petType === 'dog' ? ['purrs', 'indoor'] : ['barks', 'packSize'];
      for (const name of own) expect(animal).toHaveProperty(name);
      // The other branch's fields, if present at all, are null: the answer matches one branch.
      for (const name of other) expect(animal[name] ?? null).toBeNull();
    }
    expect(kinds).toEqual(new Set(['dog', 'cat']));
  });

  it('tells oneOf branches apart by their enum', async () => {
    const { app } = await storeApp();
    const animals: unknown = (await request(app).get('/v1/store/animals').set(AUTH).expect(200))
      .body;
    expect(Array.isArray(animals) && animals.length).toBe(3);
  });
});

describe('every earlier step applies to an operation answered from the contract', () => {
  it('credentials: 401 without a token', async () => {
    const { app } = await storeApp();
    expectError(await request(app).get('/v1/store/orders/1'), 401, 'unauthorized');
  });

  it('Prefer: code=… forces a documented error, and refuses an undocumented status', async () => {
    const { app } = await storeApp();
    const res = await request(app).get('/v1/store/orders/1').set(AUTH).set('Prefer', 'code=404');
    expectError(res, 404, 'not_found');
    expect(res.headers['x-mock-answer']).toBeUndefined();
    expectError(
      await request(app).get('/v1/store/orders/1').set(AUTH).set('Prefer', 'code=500'),
      422,
      'not_in_contract',
    );
  });

  it('Prefer: code=… picks another documented success answer', async () => {
    const { app } = await storeApp();
    const res = await request(app)
      .post('/v1/store/orders')
      .set(AUTH)
      .set('Prefer', 'code=202')
      .send({ petId: 7, quantity: 2 })
      .expect(202);
    expect(res.headers['x-mock-answer']).toBe('generated');
    const queued = record(res.body);
    expect(Object.keys(queued).sort()).toEqual(['position', 'queued']);
    expect(queued.queued).toBe(true);
    expect(queued.position).toBeGreaterThanOrEqual(1);
  });

  it('a scenario in X-Mock-Scenario, and a session switched to one', async () => {
    const { app } = await storeApp();
    expectError(
      await request(app).get('/v1/store/profile').set(AUTH).set('X-Mock-Scenario', 'unauthorized'),
      401,
      'unauthorized',
    );
    await activate(app, 'unauthorized', { session: 's1' });
    expectError(
      await request(app).get('/v1/store/profile').set(petHeaders('s1')),
      401,
      'unauthorized',
    );
    await request(app).get('/v1/store/profile').set(petHeaders('s2')).expect(200);
  });

  it('sessions: the call opens its session, which journals it', async () => {
    const { app, state } = await storeApp();
    await request(app).get('/v1/store/inventory').set(petHeaders('w1')).expect(200);
    expect(await isLive(state, 'w1')).toBe(true);
    const entries = asJournal(
      (await request(app).get('/__admin/requests').set('X-Mock-Session', 'w1').expect(200)).body,
    );
    expect(entries.map((e) => [e.operationId, e.status])).toEqual([['getInventory', 200]]);
    expectError(
      await request(app).get('/v1/store/inventory').set(AUTH).set('X-Mock-Session', 'bad id!'),
      422,
      'invalid_session',
    );
  });

  it('the journal and coverage count it, forced or not', async () => {
    const { app } = await storeApp();
    await request(app).get('/v1/store/orders/1').set(AUTH).expect(200);
    await request(app).get('/v1/store/orders/1').set(AUTH).set('Prefer', 'code=404').expect(404);
    const entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
    expect(entries.map((e) => [e.operationId, e.status, e.scenario])).toEqual(
      expect.arrayContaining([
        ['getOrder', 200, null],
        ['getOrder', 404, 'Prefer: code=404'],
      ]),
    );
    const getOrder = (await coverageOf(app)).operations.find((op) => op.operationId === 'getOrder');
    expect(getOrder?.statuses['200']).toEqual(expect.objectContaining({ count: 1, forced: 0 }));
    expect(getOrder?.statuses['404']).toEqual(expect.objectContaining({ count: 1, forced: 1 }));
  });

  it('CORS: a browser may read X-Mock-Answer', async () => {
    const { app } = await storeApp();
    const res = await request(app)
      .get('/v1/store/orders')
      .set(AUTH)
      .set('Origin', 'http://localhost:5173')
      .expect(200);
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Mock-Answer');
  });

  it('the pet operations keep their handlers, without X-Mock-Answer', async () => {
    const { app } = await storeApp();
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.headers['x-mock-answer']).toBeUndefined();
  });
});
