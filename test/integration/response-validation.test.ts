import type { Express } from 'express';
import { Low, Memory } from 'lowdb';
import request from 'supertest';
import type { Test } from 'supertest';
import { createApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { loadMock } from '../../src/server/load-mock.js';
import { LocalState } from '../../src/state/local-state.js';
import type { Pet } from '../../src/state/pet.js';
import { PetStore } from '../../src/state/pet-store.js';
import type { StoreData } from '../../src/state/store-data.js';
import { AUTH, captureLogger, contract, createTestApp } from '../helpers/test-app.js';
import { expectError, somePets } from '../helpers/http-matrix.js';
import { itOnMemory } from '../helpers/state-backend.js';

/** A store over data that was never checked: how a bug in the mock would hand out a bad pet. */
function uncheckedStore(pets: Pet[]): PetStore {
  const data: StoreData = { nextId: pets.length + 1, pets };
  return new PetStore(new Low(new Memory<StoreData>(), data), data);
}

function errorLines(logs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return logs.filter((line) => line.level === 50);
}

describe('response validation: a response that breaks the contract never reaches the client', () => {
  const brokenPets = (): Pet[] => [{ id: 1, name: 'x', categoryId: 1.5 }];

  it.each([
    ['listPets', '/v1/pets'],
    ['getPet', '/v1/pets/1'],
  ])('%s over a pet with categoryId 1.5 → 500 internal_error naming it', async (_op, path) => {
    const { app, logs } = await createTestApp({ uncheckedPets: brokenPets() });
    const res = await request(app).get(path).set(AUTH);
    const body = expectError(res, 500, 'internal_error');
    expect(body.message).toContain('categoryId');
    expect(body.message).toMatch(/contract/i);
    expect(res.text).not.toContain('1.5,');
    expect(res.text).not.toContain('"name":"x"');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('categoryId');
  });

  it.each([
    ['a status outside the enum', 'status', '{"id":1,"name":"x","categoryId":1,"status":"lost"}'],
    ['a name that is a number', 'name', '{"id":1,"name":7,"categoryId":1}'],
    ['no categoryId', 'categoryId', '{"id":1,"name":"x"}'],
  ])('listPets over a pet with %s → 500 naming %s', async (_label, field, json) => {
    // Parsed data is typed only by assertion: the way a bad pet could slip into a store.
    const pets = JSON.parse(`[${json}]`) as Pet[];
    const { app, logs } = await createTestApp({ uncheckedPets: pets });
    const res = await request(app).get('/v1/pets').set(AUTH);
    const body = expectError(res, 500, 'internal_error');
    expect(body.message).toContain(field);
    expect(errorLines(logs)).toHaveLength(1);
  });

  it.each([
    ['id', { id: 2n ** 63n, name: 'x', categoryId: 1 }],
    ['categoryId', { id: 1, name: 'x', categoryId: -(2n ** 63n) - 1n }],
  ])(
    'a pet whose %s is outside int64 (a bigint the schema sees rounded) → 500',
    async (field, pet) => {
      const { app, logs } = await createTestApp({ uncheckedPets: [pet] });
      const res = await request(app).get('/v1/pets').set(AUTH);
      const body = expectError(res, 500, 'internal_error');
      expect(body.message).toContain(`/response/0/${field}`);
      expect(body.message).toContain('int64');
      expect(errorLines(logs)).toHaveLength(1);
    },
  );

  it('only the broken answer fails: a valid pet in the same store is still served', async () => {
    const pets: Pet[] = [
      { id: 1, name: 'x', categoryId: 1.5 },
      { id: 2, name: 'ok', categoryId: 2 },
    ];
    const { app } = await createTestApp({ uncheckedPets: pets });
    const res = await request(app).get('/v1/pets/2').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 2, name: 'ok', categoryId: 2 });
  });

  it('logs nothing at error level for valid answers', async () => {
    const { app, logs } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get('/v1/pets/2').set(AUTH).expect(200);
    await request(app).post('/v1/pets').set(AUTH).send({ name: 'n', categoryId: 1 }).expect(201);
    expect(errorLines(logs)).toHaveLength(0);
  });
});

describe('in the configuration that ships', () => {
  itOnMemory('builds a LocalState over an unchecked store: about loadMock, not the backend')(
    'turns a contract-breaking answer into a 500: what loadMock builds validates answers',
    async () => {
      const command = loadConfig(['--log-level', 'silent'], {});
      if (command.kind !== 'run') throw new Error('expected a run');
      const { logger, lines } = captureLogger();
      // What startServer and the CLI build, with only the default session's store swapped for one
      // holding a pet the load-time checks would have refused.
      const deps = await loadMock(command.config, logger);
      expect(deps.validation).toBeUndefined();
      const store = uncheckedStore([{ id: 1, name: 'x', categoryId: 1.5 }]);
      const state = new LocalState({
        kind: 'memory',
        defaultStore: store,
        initial: { nextId: 2, pets: [] },
        settings: { journalSize: 10, maxSessions: 1 },
      });
      const app = createApp({ ...deps, state });
      const res = await request(app).get('/v1/pets').set(AUTH);
      expect(expectError(res, 500, 'internal_error').message).toContain('categoryId');
      expect(lines.filter((line) => line.level === 50)).toHaveLength(1);
    },
  );
});

describe('every Error body validates against the contract Error schema', () => {
  const checkError = contract.checkSchema('Error');

  const DOCUMENTED: readonly [label: string, send: (app: Express) => Test, status: number][] = [
    ['listPets 401', (app) => request(app).get('/v1/pets'), 401],
    [
      'createPet 401',
      (app) => request(app).post('/v1/pets').send({ name: 'n', categoryId: 1 }),
      401,
    ],
    ['getPet 401', (app) => request(app).get('/v1/pets/1'), 401],
    [
      'createPet 400 (missing name)',
      (app) => request(app).post('/v1/pets').set(AUTH).send({ categoryId: 1 }),
      400,
    ],
    [
      'createPet 400 (malformed JSON)',
      (app) =>
        request(app).post('/v1/pets').set(AUTH).set('Content-Type', 'application/json').send('{'),
      400,
    ],
    [
      'createPet 400 (text/plain)',
      (app) => request(app).post('/v1/pets').set(AUTH).set('Content-Type', 'text/plain').send('x'),
      400,
    ],
    ['getPet 404', (app) => request(app).get('/v1/pets/99').set(AUTH), 404],
  ];

  it.each(DOCUMENTED)('%s', async (_label, send, status) => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await send(app);
    expect(res.status).toBe(status);
    const body: unknown = res.body;
    expect(checkError(body)).toEqual([]);
    expect(body).toMatchObject({ status });
  });

  it('the check itself rejects a body that breaks the schema', () => {
    expect(checkError({ code: 'x', message: 'y' })).not.toEqual([]);
    expect(checkError({ code: 'x', message: 'y', status: '400' })).not.toEqual([]);
    expect(checkError({ code: 'x', message: 'y', status: 400 })).toEqual([]);
  });
});
