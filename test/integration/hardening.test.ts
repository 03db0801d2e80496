import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { openPetStore } from '../../src/state/open-store.js';
import { readStoreFile } from '../../src/state/read-store-file.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { openRaw, type RawConnection } from '../helpers/raw-socket.js';
import { AUTH, contract, createTestApp } from '../helpers/test-app.js';
import { backendOptions, itOnMemory, testBackend } from '../helpers/state-backend.js';

const SLOW = 60_000;

/** Sends raw bytes on a new connection and collects everything the server answers. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('end', () => {
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('limits, each answered with an Error body', () => {
  it('sends X-Content-Type-Options: nosniff on answers and errors', async () => {
    const { app } = await createTestApp();
    for (const res of [
      await request(app).get('/v1/pets').set(AUTH),
      await request(app).get('/v1/pets'),
      await request(app).get('/nowhere'),
      await request(app).get('/__admin/health'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses more than 32 query parameters', async () => {
    const { app } = await createTestApp();
    const many = Array.from({ length: 33 }, () => 'status=sold').join('&');
    const res = await request(app).get(`/v1/pets?${many}`).set(AUTH);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'bad_request',
      message: 'Too many query parameters: at most 32 are read.',
      status: 400,
    });
  });

  it('refuses JSON nested deeper than 32 levels, and accepts 32', async () => {
    const { app, state } = await createTestApp({ pets: [] });
    const nested = (depth: number): string =>
      `{"name":"a","categoryId":1,"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const deep = await request(app)
      .post('/v1/pets')
      .set({ ...AUTH, 'Content-Type': 'application/json' })
      .send(nested(33));
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'bad_request', status: 400 });
    expect(await state.petCount()).toBe(0);
    const ok = await request(app)
      .post('/v1/pets')
      .set({ ...AUTH, 'Content-Type': 'application/json' })
      .send(nested(32));
    expect(ok.status).toBe(201);
  });

  it('answers 404 for /__admin with --no-admin (noAdmin), and serves the pet API', async () => {
    const { app } = await createTestApp({ noAdmin: true });
    const res = await request(app).get('/__admin/health');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', status: 404 });
    expect((await request(app).get('/v1/pets').set(AUTH)).status).toBe(200);
  });
});

describe('on a real socket', () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await startMockServer(backendOptions());
  });

  afterAll(async () => {
    await mock.close();
  });

  it('answers headers over 16 kB with 431 and an Error body', async () => {
    const raw = await rawExchange(
      mock.port,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(raw.startsWith('HTTP/1.1 431 ')).toBe(true);
    expect(bodyOf(raw)).toEqual({
      code: 'headers_too_large',
      message: 'The request line and headers exceed 16384 bytes.',
      status: 431,
    });
  });

  it('answers a request that is not HTTP with 400 and an Error body', async () => {
    const raw = await rawExchange(mock.port, 'GARBAGE\r\n\r\n');
    expect(raw.startsWith('HTTP/1.1 400 ')).toBe(true);
    expect(bodyOf(raw)).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it(
    'serves other clients while 200 slow clients hold half-sent requests',
    async () => {
      const slow: RawConnection[] = [];
      try {
        // Each connected and its half request handed to the kernel before any other client
        // comes: the server accepts connections in the order they were made.
        for (let i = 0; i < 200; i += 1) {
          const connection = await openRaw(mock.port);
          slow.push(connection);
          await new Promise<void>((resolve, reject) => {
            connection.socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n', (error) => {
              if (error) reject(error);
              else resolve();
            }); // headers never finished
          });
        }
        for (let i = 0; i < 5; i += 1) {
          const res = await fetch(`${mock.url}/pets?limit=1`, { headers: AUTH });
          expect(res.status).toBe(200);
        }
        // All 200 still held open, none answered: the server served the others alongside them.
        expect(slow.filter((connection) => connection.socket.closed)).toHaveLength(0);
        expect(slow.filter((connection) => connection.received() !== '')).toHaveLength(0);
      } finally {
        for (const connection of slow) connection.socket.destroy();
      }
    },
    SLOW,
  );
});

describe('1,000 concurrent creates', () => {
  async function createConcurrently(mock: MockServer): Promise<number[]> {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${mock.url}/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `pet-${i}`, categoryId: 1 }),
        }).then(async (res) => {
          expect(res.status).toBe(201);
          return ((await res.json()) as { id: number }).id;
        }),
      ),
    );
    return answers;
  }

  it(
    `give 1,000 distinct ids, all retrievable (${testBackend})`,
    async () => {
      const mock = await startMockServer(backendOptions());
      try {
        const ids = await createConcurrently(mock);
        expect(new Set(ids).size).toBe(1000);
        for (const id of ids) {
          expect((await fetch(`${mock.url}/pets/${id}`, { headers: AUTH })).status).toBe(200);
        }
      } finally {
        await mock.close();
      }
    },
    SLOW,
  );

  itOnMemory('reads the --db file and reopens it: the file backend itself')(
    'give 1,000 distinct ids, all in the --db file',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'petstore-concurrent-'));
      const db = join(dir, 'pets.json');
      const mock = await startMockServer({ db });
      let closed = false;
      try {
        const ids = await createConcurrently(mock);
        expect(new Set(ids).size).toBe(1000);
        // What a restart would read now: the file with the journal of the creates since.
        const stored = await readStoreFile(db, contract.checkSchema('Pet'));
        const inFile = new Set(stored?.pets.map((pet) => pet.id));
        expect(ids.every((id) => inFile.has(id))).toBe(true);
        // A store opened on the file takes it over only once the mock has let it go.
        closed = true;
        await mock.close();
        const reopened = await openPetStore({
          initial: storeDataFrom([]),
          db: db,
          checkPet: contract.checkSchema('Pet'),
        });
        expect(ids.every((id) => reopened.get(id) !== undefined)).toBe(true);
        await reopened.close();
      } finally {
        if (!closed) await mock.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});

describe('error messages never echo unbounded input', () => {
  it.each([
    ['an unknown query parameter name', `/v1/pets?${'q'.repeat(5000)}=1`],
    ['an unknown path', `/v1/${'p'.repeat(5000)}`],
    ['a bad petId', `/v1/pets/${'9'.repeat(5000)}`],
  ])('%s', async (_what, path) => {
    const { app } = await createTestApp();
    const res = await request(app).get(path).set(AUTH);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const { message } = res.body as { message: string };
    expect(message.length).toBeLessThan(300);
  });
});

describe('paths match as the contract writes them', () => {
  it.each(['/V1/PETS', '/v1/Pets', '/V1/pets/1', '/__ADMIN/health'])(
    '%s is no operation: 404 not_found',
    async (path) => {
      const { app } = await createTestApp();
      const res = await request(app).get(path).set(AUTH);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', status: 404 });
    },
  );
});

describe('inputs the fuzz found mishandled (each a fixed bug)', () => {
  it.each(['0x10', '1e2', '%205', '5%0A', '+5', '1e400', '5&limit=6'])(
    'limit=%s is not one decimal integer: 400 naming limit',
    async (value) => {
      const { app } = await createTestApp();
      const res = await request(app).get(`/v1/pets?limit=${value}`).set(AUTH);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', status: 400 });
      expect((res.body as { message: string }).message).toContain("'limit'");
    },
  );

  it('answers malformed percent-encoding in a path 400 once authenticated, 401 before', async () => {
    const { app } = await createTestApp();
    const authed = await request(app).get('/v1/pets/%C0%AF').set(AUTH);
    expect(authed.status).toBe(400);
    expect(authed.body).toMatchObject({ code: 'bad_request', status: 400 });
    const anonymous = await request(app).get('/v1/pets/%C0%AF');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers a body that is not in its Content-Encoding with 400, creating nothing', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    const res = await request(app)
      .post('/v1/pets')
      .set({ ...AUTH, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
      .send('{"name":"a","categoryId":1}');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', status: 400 });
    expect(await state.petCount()).toBe(before);
  });

  it.each(['1.0000000000000001', '4503599627370496.5'])(
    'refuses categoryId %s (not an integer, though a double rounds it to one)',
    async (categoryId) => {
      const { app, state } = await createTestApp();
      const before = await state.petCount();
      const res = await request(app)
        .post('/v1/pets')
        .set({ ...AUTH, 'Content-Type': 'application/json' })
        .send(`{"name":"a","categoryId":${categoryId}}`);
      expect(res.status).toBe(400);
      expect(await state.petCount()).toBe(before);
    },
  );

  it.each([
    ['1.0', '1'],
    ['1e18', '1000000000000000000'],
  ])('accepts categoryId %s as the integer %s', async (literal, digits) => {
    const { app } = await createTestApp();
    const res = await request(app)
      .post('/v1/pets')
      .set({ ...AUTH, 'Content-Type': 'application/json' })
      .send(`{"name":"a","categoryId":${literal}}`);
    expect(res.status).toBe(201);
    expect(res.text).toContain(`"categoryId":${digits}}`);
  });
});
