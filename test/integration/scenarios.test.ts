import { pino } from 'pino';
import request from 'supertest';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/config/config-error.js';
import { loadMock } from '../../src/server/load-mock.js';
import type { Scenario } from '../../src/contract/scenario.js';
import {
  activate,
  asPet,
  asPets,
  asScenarioListing,
  expectError,
  listNames,
} from '../helpers/scenario-http.js';
import { AUTH, createTestApp, fixturePets, shippedScenarios } from '../helpers/test-app.js';

const NEW_PET = { name: 'Rex', categoryId: 2 };
const KNOWN_ID = fixturePets[0]?.id ?? 1;

function only(scenario: Scenario): ReadonlyMap<string, Scenario> {
  return new Map([[scenario.name, scenario]]);
}

describe('precedence: auth, then validation, then scenarios', () => {
  it('answers 401 to a request without credentials even with Prefer: code=404', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get(`/v1/pets/${KNOWN_ID}`).set('Prefer', 'code=404');
    expectError(res, 401, 'unauthorized');
  });

  it('answers 401 to a request without credentials under X-Mock-Scenario: not-found', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get(`/v1/pets/${KNOWN_ID}`).set('X-Mock-Scenario', 'not-found');
    expectError(res, 401, 'unauthorized');
  });

  it('answers 401 to a request without credentials under a global not-found', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    expectError(await request(app).get(`/v1/pets/${KNOWN_ID}`), 401, 'unauthorized');
  });

  it('answers 401 to a request without credentials even with an invalid Prefer', async () => {
    const { app } = await createTestApp();
    expectError(await request(app).get('/v1/pets').set('Prefer', 'code=4x4'), 401, 'unauthorized');
  });

  it('answers 401 to a request without credentials even with an unknown X-Mock-Scenario', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets').set('X-Mock-Scenario', 'nope');
    expectError(res, 401, 'unauthorized');
  });

  it('validates the request before forcing anything: a bad body with Prefer: code=201 is 400', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Prefer', 'code=201')
      .send({ categoryId: 1 });
    expectError(res, 400, 'bad_request');
    expect(await state.petCount()).toBe(before);
  });

  it('validates the request before a scenario: limit=0 under empty-catalogue is 400', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get('/v1/pets?limit=0')
      .set(AUTH)
      .set('X-Mock-Scenario', 'empty-catalogue');
    expectError(res, 400, 'bad_request');
  });

  it('lets Prefer win over X-Mock-Scenario', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('Prefer', 'code=401')
      .set('X-Mock-Scenario', 'not-found');
    expectError(res, 401, 'unauthorized');
  });

  it('lets Prefer win over the global scenario', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    const res = await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).set('Prefer', 'code=200');
    expect(res.status).toBe(200);
    expect(asPet(res.body)).toEqual(fixturePets[0]);
  });

  it('lets X-Mock-Scenario win over the global scenario', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('X-Mock-Scenario', 'unauthorized');
    expectError(res, 401, 'unauthorized');
  });

  it('does not fall back to the global scenario when the named one has no rule for the operation', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    // empty-catalogue has no getPet rule: the normal answer, not the global 404.
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('X-Mock-Scenario', 'empty-catalogue');
    expect(res.status).toBe(200);
    expect(asPet(res.body)).toEqual(fixturePets[0]);
  });
});

describe('Prefer: code=NNN', () => {
  it.each([
    ['get', `/v1/pets/${KNOWN_ID}`, 404, 'not_found'],
    ['get', `/v1/pets/${KNOWN_ID}`, 401, 'unauthorized'],
    ['get', '/v1/pets', 401, 'unauthorized'],
  ] as const)('%s %s with code=%i answers that error', async (_method, path, status, code) => {
    const { app } = await createTestApp();
    const res = await request(app).get(path).set(AUTH).set('Prefer', `code=${status}`);
    expectError(res, status, code);
  });

  it('carries WWW-Authenticate on a forced 401', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=401');
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['example=x, code=404', 404],
    ['code="404"', 404],
    ['code=404;foo=bar', 404],
    ['dynamic=true, code=401', 401],
  ])('follows Prism grammar: %j forces %i', async (header, status) => {
    const { app } = await createTestApp();
    const res = await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).set('Prefer', header);
    expect(res.status).toBe(status);
  });

  it('ignores a Prefer header without a code', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('Prefer', 'example=cat, dynamic=true');
    expect(res.status).toBe(200);
  });

  it.each(['code=4x4', 'code=1000', 'code=40'])(
    'refuses %j with 422 invalid_preference',
    async (header) => {
      const { app } = await createTestApp();
      const res = await request(app).get('/v1/pets').set(AUTH).set('Prefer', header);
      const body = expectError(res, 422, 'invalid_preference');
      expect(body.message).toMatch(/control plane/);
    },
  );

  it.each([
    ['get', '/v1/pets', 404, 'listPets', '200, 401'],
    ['get', '/v1/pets', 400, 'listPets', '200, 401'],
    ['get', `/v1/pets/${KNOWN_ID}`, 400, 'getPet', '200, 401, 404'],
    ['post', '/v1/pets', 404, 'createPet', '201, 400, 401'],
    ['post', '/v1/pets', 500, 'createPet', '201, 400, 401'],
  ] as const)(
    '%s %s with code=%i is 422 not_in_contract listing what %s documents',
    async (method, path, status, operationId, documented) => {
      const { app, state } = await createTestApp();
      const before = await state.petCount();
      const agent = request(app);
      const res = await agent[method](path)
        .set(AUTH)
        .set('Prefer', `code=${status}`)
        .send(method === 'post' ? NEW_PET : undefined);
      const body = expectError(res, 422, 'not_in_contract');
      expect(body.message).toContain(documented);
      expect(body.message).toContain(operationId);
      expect(body.message).toMatch(/control plane/);
      expect(await state.petCount()).toBe(before);
    },
  );

  it.each([400, 401])('a forced %i on createPet creates no pet', async (status) => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const names = await listNames(app);
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Prefer', `code=${status}`)
      .send(NEW_PET);
    expectError(res, status, status === 400 ? 'bad_request' : 'unauthorized');
    expect(await state.petCount()).toBe(before);
    expect(await listNames(app)).toEqual(names);
    expect(await listNames(app)).not.toContain('Rex');
  });

  it('a forced 201 without a body answers normally: the pet is created', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Prefer', 'code=201')
      .send(NEW_PET);
    expect(res.status).toBe(201);
    const pet = asPet(res.body);
    expect(pet).toMatchObject(NEW_PET);
    expect(await state.petCount()).toBe(before + 1);
    expect(await listNames(app)).toContain('Rex');
  });

  it('a forced 200 on getPet answers the stored pet', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).set('Prefer', 'code=200');
    expect(res.status).toBe(200);
    expect(asPet(res.body)).toEqual(fixturePets[0]);
  });

  it('applies to one request only', async () => {
    const { app } = await createTestApp();
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).set('Prefer', 'code=404').expect(404);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });
});

describe('X-Mock-Scenario', () => {
  it('applies the named scenario to that request only', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('X-Mock-Scenario', 'not-found');
    const body = expectError(res, 404, 'not_found');
    expect(body.message).toBe('The requested animal does not exist.');
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });

  it('refuses an unknown name with 422 unknown_scenario', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Scenario', 'nope');
    const body = expectError(res, 422, 'unknown_scenario');
    expect(body.message).toContain('"nope"');
    expect(body.message).toMatch(/control plane/);
  });

  it('answers normally for an operation the scenario has no rule for', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get('/v1/pets?limit=3')
      .set(AUTH)
      .set('X-Mock-Scenario', 'not-found');
    expect(res.status).toBe(200);
    expect(asPets(res.body)).toEqual(fixturePets.slice(0, 3));
  });

  it('uses the code and message a scenario rule gives', async () => {
    const custom: Scenario = {
      name: 'custom',
      description: '',
      source: 'test',
      rules: [{ operations: ['getPet'], status: 404, code: 'gone', message: 'Gone fishing.' }],
    };
    const { app } = await createTestApp({ scenarios: only(custom) });
    const res = await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('X-Mock-Scenario', 'custom');
    expectError(res, 404, 'gone');
    expect(res.body).toEqual({ code: 'gone', message: 'Gone fishing.', status: 404 });
  });
});

describe('forced bodies go through response validation', () => {
  it('answers 500 internal_error for a forced body that breaks the contract', async () => {
    const bad: Scenario = {
      name: 'bad',
      description: '',
      source: 'test',
      rules: [{ operations: ['listPets'], status: 200, body: [{ id: 'x' }] }],
    };
    const { app } = await createTestApp({ scenarios: new Map([['bad', bad]]) });
    const res = await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Scenario', 'bad');
    expectError(res, 500, 'internal_error');
    expect(res.text).not.toContain('"x"');
  });

  it('answers a forced body that fits the contract', async () => {
    const one = fixturePets[1];
    if (!one) throw new Error('fixtures too small');
    const good: Scenario = {
      name: 'one-pet',
      description: '',
      source: 'test',
      rules: [{ operations: ['listPets'], status: 200, body: [one] }],
    };
    const { app } = await createTestApp({ scenarios: only(good) });
    const res = await request(app).get('/v1/pets').set(AUTH).set('X-Mock-Scenario', 'one-pet');
    expect(res.status).toBe(200);
    expect(asPets(res.body)).toEqual([one]);
  });
});

describe('the shipped scenarios, per request', () => {
  it.each([
    ['get', '/v1/pets'],
    ['get', `/v1/pets/${KNOWN_ID}`],
    ['post', '/v1/pets'],
  ] as const)('unauthorized: %s %s answers 401 with WWW-Authenticate', async (method, path) => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const agent = request(app);
    const res = await agent[method](path)
      .set(AUTH)
      .set('X-Mock-Scenario', 'unauthorized')
      .send(method === 'post' ? NEW_PET : undefined);
    const body = expectError(res, 401, 'unauthorized');
    expect(body.message).toBe('Invalid API key.');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await state.petCount()).toBe(before);
  });

  it('not-found: getPet answers 404 for an id that exists', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    for (const pet of fixturePets.slice(0, 3)) {
      expectError(await request(app).get(`/v1/pets/${pet.id}`).set(AUTH), 404, 'not_found');
    }
  });

  it('invalid-request: createPet answers 400 to a valid body and creates nothing', async () => {
    const { app, state } = await createTestApp();
    await activate(app, 'invalid-request');
    const before = await state.petCount();
    const res = await request(app).post('/v1/pets').set(AUTH).send(NEW_PET);
    const body = expectError(res, 400, 'bad_request');
    expect(body.message).toBe('The body is missing required fields or contains invalid values.');
    expect(await state.petCount()).toBe(before);
    await request(app).delete('/__admin/scenario').expect(204);
    expect(await listNames(app)).not.toContain('Rex');
  });

  it('empty-catalogue: listPets answers [] although the store has pets', async () => {
    const { app, state } = await createTestApp();
    await activate(app, 'empty-catalogue');
    expect(await state.petCount()).toBeGreaterThan(0);
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.body).toEqual([]);
    const filtered = await request(app)
      .get('/v1/pets?status=available&limit=5')
      .set(AUTH)
      .expect(200);
    expect(filtered.body).toEqual([]);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });

  // The upper bound (1500 ms) is drawn, not timed: test/unit/scenario-delay.test.ts.
  it('slow: the normal answer arrives, after at least 800 ms', async () => {
    const { app } = await createTestApp();
    const started = performance.now();
    const res = await request(app).get('/v1/pets?limit=2').set(AUTH).set('X-Mock-Scenario', 'slow');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(asPets(res.body)).toEqual(fixturePets.slice(0, 2));
    // A timer fires no sooner than asked, counted in whole (possibly coarse) milliseconds of the
    // same monotonic clock: a lower bound that holds however loaded the machine.
    expect(elapsed).toBeGreaterThanOrEqual(800 - 2);
  });

  it('slow: a create under it still creates the pet', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('X-Mock-Scenario', 'slow')
      .send(NEW_PET);
    expect(res.status).toBe(201);
    expect(await state.petCount()).toBe(before + 1);
  });

  it('timeout: is shipped as a 30000 ms fixed delay on every operation (not run)', () => {
    const timeout = shippedScenarios.get('timeout');
    expect(timeout?.rules).toEqual([{ operations: 'all', delay: { fixed: 30000 } }]);
  });
});

describe('the global switch (admin API)', () => {
  it('stays on until switched off', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    for (let i = 0; i < 3; i += 1) {
      await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
    }
    await request(app).delete('/__admin/scenario').expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });

  it('with times counts only matching requests', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found', { times: 2 });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).post('/v1/pets').set(AUTH).send(NEW_PET).expect(201);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
    const listing = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(listing.active).toEqual({ name: 'not-found', remaining: 1 });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
    const after = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(after.active).toBeNull();
  });

  it('a new activation replaces the active scenario', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    await activate(app, 'empty-catalogue');
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.body).toEqual([]);
  });

  it('lists the scenarios known and the active one', async () => {
    const { app } = await createTestApp();
    const off = asScenarioListing((await request(app).get('/__admin/scenarios').expect(200)).body);
    expect(off.active).toBeNull();
    expect(off.scenarios.map((s) => s.name).sort()).toEqual([...shippedScenarios.keys()].sort());
    expect(off.scenarios.find((s) => s.name === 'not-found')).toEqual({
      name: 'not-found',
      description: shippedScenarios.get('not-found')?.description,
      operations: ['getPet'],
      everyOperation: false,
    });
    // `operations: all` is listed as the contract's operations, each by name.
    expect(off.scenarios.find((s) => s.name === 'slow')).toMatchObject({
      operations: ['listPets', 'createPet', 'getPet'],
      everyOperation: true,
    });
    for (const summary of off.scenarios) expect(summary.description).toMatch(/\S/);

    await activate(app, 'unauthorized');
    const on = asScenarioListing((await request(app).get('/__admin/scenarios').expect(200)).body);
    expect(on.active).toEqual({ name: 'unauthorized', remaining: null });

    await activate(app, 'not-found', { times: 5 });
    const counted = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(counted.active).toEqual({ name: 'not-found', remaining: 5 });
  });

  it('refuses an unknown name with 422 unknown_scenario and keeps the active one', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    const res = await request(app).put('/__admin/scenario').send({ name: 'nope' });
    const body = expectError(res, 422, 'unknown_scenario');
    expect(body.message).toContain('"nope"');
    expect(body.message).toMatch(/control plane/);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
  });

  it.each([
    ['a missing name', { times: 2 }],
    ['times 0', { name: 'not-found', times: 0 }],
    ['negative times', { name: 'not-found', times: -1 }],
    ['fractional times', { name: 'not-found', times: 1.5 }],
    ['an extra key', { name: 'not-found', forever: true }],
    ['an empty name', { name: '' }],
    ['a name that is not a string', { name: 7 }],
  ])('refuses %s with 400 bad_request', async (_what, body) => {
    const { app } = await createTestApp();
    const res = await request(app).put('/__admin/scenario').send(body);
    expectError(res, 400, 'bad_request');
    const listing = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(listing.active).toBeNull();
  });

  it('refuses a PUT without a JSON body with 400 or 415', async () => {
    const { app } = await createTestApp();
    const res = await request(app).put('/__admin/scenario');
    expect([400, 415]).toContain(res.status);
  });

  it('DELETE when nothing is active is still 204', async () => {
    const { app } = await createTestApp();
    await request(app).delete('/__admin/scenario').expect(204);
  });
});

describe('start-up scenario (--scenario)', () => {
  it('is active from the start', async () => {
    const { app } = await createTestApp({ startupScenario: 'not-found' });
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
    const listing = asScenarioListing(
      (await request(app).get('/__admin/scenarios').expect(200)).body,
    );
    expect(listing.active).toEqual({ name: 'not-found', remaining: null });
  });

  it('can be switched off, and a reset brings it back', async () => {
    const { app } = await createTestApp({ startupScenario: 'not-found' });
    await request(app).delete('/__admin/scenario').expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
    await request(app).post('/__admin/reset').expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(404);
  });

  it('a reset replaces a scenario switched on later with the start-up one', async () => {
    const { app } = await createTestApp({ startupScenario: 'empty-catalogue' });
    await activate(app, 'unauthorized');
    await request(app).post('/__admin/reset').expect(204);
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.body).toEqual([]);
  });

  it('applies to new sessions too', async () => {
    const { app } = await createTestApp({ startupScenario: 'not-found' });
    await request(app)
      .get(`/v1/pets/${KNOWN_ID}`)
      .set(AUTH)
      .set('X-Mock-Session', 's1')
      .expect(404);
  });

  it('without one, a reset switches scenarios off', async () => {
    const { app } = await createTestApp();
    await activate(app, 'not-found');
    await request(app).post('/__admin/reset').expect(204);
    await request(app).get(`/v1/pets/${KNOWN_ID}`).set(AUTH).expect(200);
  });

  it('an unknown --scenario is a bad setting (ConfigError, exit 2) naming it', async () => {
    const command = loadConfig(['--scenario', 'nope', '--log-level', 'silent'], {});
    if (command.kind !== 'run') throw new Error('expected a run command');
    const attempt = loadMock(command.config, pino({ level: 'silent' }));
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/"nope"/);
  });

  it('a known --scenario loads and is active', async () => {
    const command = loadConfig(['--scenario', 'not-found', '--log-level', 'silent'], {});
    if (command.kind !== 'run') throw new Error('expected a run command');
    const deps = await loadMock(command.config, pino({ level: 'silent' }));
    expect((await deps.state.active(undefined))?.name).toBe('not-found');
  });

  it('MOCK_SCENARIO works like --scenario', async () => {
    const command = loadConfig(['--log-level', 'silent'], { MOCK_SCENARIO: 'nope' });
    if (command.kind !== 'run') throw new Error('expected a run command');
    await expect(loadMock(command.config, pino({ level: 'silent' }))).rejects.toThrow(/nope/);
  });
});
