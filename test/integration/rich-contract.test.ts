import { join } from 'node:path';
import request from 'supertest';
import { loadContract } from '../../src/contract/load-contract.js';
import type { Scenario } from '../../src/contract/scenario.js';
import { expectError, somePets } from '../helpers/http-matrix.js';
import { AUTH, createTestApp } from '../helpers/test-app.js';

// A contract that the mock's former home-made checks refused to start on: express-openapi-validator
// validates readOnly (requests), writeOnly (answers) and a discriminator (oneOf by petType); the
// pet handlers' answers leave out what the answer's schema marks writeOnly.
const rich = loadContract(join(import.meta.dirname, '..', 'fixtures', 'rich-contract.yaml'));

async function richApp() {
  return createTestApp({ contract: rich, pets: somePets(3) });
}

describe('a contract with readOnly, writeOnly and a discriminator', () => {
  it('starts, and answers what keeps to it', async () => {
    const { app } = await richApp();
    const res = await request(app).get('/v1/pets').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
  });

  it('refuses a readOnly field sent in a request body', async () => {
    const { app, state } = await richApp();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ petType: 'dog', id: 7, name: 'Rex', categoryId: 1 });
    expect(expectError(res, 400, 'bad_request').message).toContain('id');
    expect(await state.petCount()).toBe(3);
  });

  it('refuses a body whose discriminator names no mapped schema', async () => {
    const { app, state } = await richApp();
    const res = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ petType: 'fish', name: 'Nemo', categoryId: 1 });
    expect(expectError(res, 400, 'bad_request').message).toContain('petType');
    expect(await state.petCount()).toBe(3);
  });

  it('refuses, per the discriminator, a field of the other schema', async () => {
    const { app } = await richApp();
    const cat = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ petType: 'cat', name: 'Tom', categoryId: 1, purrs: 'loudly' });
    expect(expectError(cat, 400, 'bad_request').message).toContain('purrs');
  });

  it('accepts a request with the writeOnly field, and never answers it', async () => {
    const { app, state } = await richApp();
    const created = await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .send({ petType: 'dog', name: 'Rex', categoryId: 4, barks: true })
      .expect(201);
    expect(created.body).toEqual({ id: 4, name: 'Rex' });
    // The store keeps it (listPets's items require it), and getPet leaves it out.
    expect((await state.getPet(undefined, 4))?.categoryId).toBe(4);
    const got = await request(app).get('/v1/pets/4').set(AUTH).expect(200);
    expect(got.body).toEqual({ id: 4, name: 'Rex' });
    const listed = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(listed.body).toContainEqual({ id: 4, name: 'Rex', categoryId: 4 });
  });

  it('still turns an answer carrying a writeOnly field into a 500 that names it', async () => {
    const forced: Scenario = {
      name: 'leaky',
      description: 'getPet answers a body with the writeOnly categoryId.',
      rules: [{ operations: ['getPet'], status: 200, body: { id: 1, name: 'x', categoryId: 1 } }],
      source: 'test',
    };
    const { app, logs } = await createTestApp({
      contract: rich,
      pets: somePets(3),
      scenarios: new Map([['leaky', forced]]),
    });
    const res = await request(app).get('/v1/pets/1').set(AUTH).set('X-Mock-Scenario', 'leaky');
    expect(expectError(res, 500, 'internal_error').message).toContain('categoryId');
    expect(logs.some((line) => line.level === 50)).toBe(true);
  });
});
