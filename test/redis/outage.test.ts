// When Redis goes away (issue 23, item 3): every pet and admin call answers 503 state_unavailable
// with the Error body and Retry-After, soon, never hanging; health names the store; when Redis is
// back the same mock serves again, and nothing it acknowledged is lost (AOF, fsync always).
import { startMockServer, type MockServer } from '../../src/index.js';
import { pollUntil } from '../helpers/poll-until.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';
import { freshPrefix } from '../helpers/state-backend.js';
import { captureLogger } from '../helpers/test-app.js';

/** Generous bound for a test that stops and starts servers on a busy machine (not a timing goal). */
const SLOW = 90_000;
/** A call that takes this long is taken to hang: far above the state timeout below. */
const HANG_MS = 20_000;
/** A short --state-timeout, so a hung Redis is given up on soon. */
const STATE_TIMEOUT_MS = 300;
const AUTH = { Authorization: 'Bearer outage' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

let redis: TestRedis;
let mock: MockServer;

beforeEach(async () => {
  redis = await startRedis({ persist: true });
  mock = await startMockServer({
    stateUrl: redis.url,
    statePrefix: freshPrefix(),
    stateTimeout: STATE_TIMEOUT_MS,
  });
});

afterEach(async () => {
  await mock.close();
  await redis.close();
});

/** A request that must be answered; one that takes HANG_MS fails the test as hanging. */
function send(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${mock.origin}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
}

/** Every pet and admin call that needs the state, as [label, path, init]. */
const STATE_CALLS: [string, string, RequestInit][] = [
  ['listPets', '/v1/pets', { headers: AUTH }],
  ['getPet', '/v1/pets/1', { headers: AUTH }],
  ['getPet of a session', '/v1/pets/1', { headers: { ...AUTH, 'X-Mock-Session': 's' } }],
  [
    'createPet',
    '/v1/pets',
    { method: 'POST', headers: JSON_AUTH, body: '{"name":"away","categoryId":1}' },
  ],
  ['listPets forced by Prefer', '/v1/pets', { headers: { ...AUTH, Prefer: 'code=401' } }],
  ['health', '/__admin/health', {}],
  ['reset', '/__admin/reset', { method: 'POST' }],
  ['scenarios', '/__admin/scenarios', {}],
  ['sessions', '/__admin/sessions', {}],
  [
    'scenario on',
    '/__admin/scenario',
    {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"not-found"}',
    },
  ],
  ['scenario off', '/__admin/scenario', { method: 'DELETE' }],
  ['requests', '/__admin/requests', {}],
  ['coverage', '/__admin/coverage', {}],
  ['coverage cleared', '/__admin/coverage', { method: 'DELETE' }],
];

/**
 * The answer's message: what is unavailable and what to do, in the mock's words. The Redis
 * client's own (ioredis: "Stream isn't writeable and enableOfflineQueue options is false",
 * "Command timed out", "Connection is closed") are for the log.
 */
function unavailableMessage(): string {
  return `The mock's state store (redis://127.0.0.1:${redis.port}) cannot be used right now, so no pet, session or scenario can be read or changed. Try again in a moment; if it lasts, check that Redis runs at that address and accepts writes (the mock's log says why).`;
}

/** Expects every state call to answer 503 state_unavailable naming the store. */
async function expectUnavailable(): Promise<void> {
  const answers = await Promise.all(
    STATE_CALLS.map(async ([label, path, init]) => {
      const res = await send(path, init);
      return {
        label,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
      };
    }),
  );
  for (const answer of answers) {
    expect(answer).toEqual({
      label: answer.label,
      status: 503,
      retryAfter: '1',
      body: {
        code: 'state_unavailable',
        status: 503,
        message: unavailableMessage(),
      },
    });
  }
}

async function healthy(): Promise<boolean> {
  return (await send('/__admin/health')).status === 200;
}

/** Creates pets until told to stop: the ids of the 201s, the only creates acknowledged. */
function writeUntil(stop: () => boolean, writer: number, acknowledged: Map<string, string>) {
  return (async () => {
    for (let i = 0; !stop(); i += 1) {
      const name = `w${writer}-${i}`;
      const res = await send('/v1/pets', {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      const text = await res.text();
      if (res.status === 201)
        acknowledged.set(String((JSON.parse(text) as { id: number }).id), text);
      else expect(res.status).toBe(503);
    }
  })();
}

describe('Redis stopped, then started again on the same port', () => {
  it(
    'answers 503 state_unavailable while away, then serves again with every acknowledged pet',
    async () => {
      const acknowledged = new Map<string, string>();
      let stopping = false;
      const writers = [0, 1, 2, 3].map((writer) =>
        writeUntil(() => stopping, writer, acknowledged),
      );
      try {
        await pollUntil(() => acknowledged.size >= 50, '50 creates acknowledged');
        await redis.stop(); // SIGKILL, under write load
        await expectUnavailable();
      } finally {
        stopping = true;
        await Promise.all(writers);
      }

      await redis.start();
      await pollUntil(healthy, 'the mock serves again');
      const lost: string[] = [];
      for (const [id, text] of acknowledged) {
        const res = await send(`/v1/pets/${id}`, { headers: AUTH });
        if (res.status !== 200 || (await res.text()) !== text) lost.push(id);
      }
      expect(lost).toEqual([]);
      // The id counter came back too: the next id is new.
      const next = await send('/v1/pets', {
        method: 'POST',
        headers: JSON_AUTH,
        body: '{"name":"after","categoryId":1}',
      });
      expect(next.status).toBe(201);
      const id = String(((await next.json()) as { id: number }).id);
      expect(acknowledged.has(id)).toBe(false);
      expect(Number(id)).toBeGreaterThan(Math.max(...[...acknowledged.keys()].map(Number)));
    },
    SLOW,
  );
});

describe('Redis frozen (it accepts connections but never answers)', () => {
  it(
    'answers 503 state_unavailable after --state-timeout instead of hanging, and serves when it wakes',
    async () => {
      expect((await send('/v1/pets', { headers: AUTH })).status).toBe(200);
      redis.pause();
      try {
        await expectUnavailable();
      } finally {
        redis.resume();
      }
      await pollUntil(healthy, 'the mock serves again');
      expect((await send('/v1/pets', { headers: AUTH })).status).toBe(200);
    },
    SLOW,
  );
});

describe('what the log says while Redis is away', () => {
  it(
    'a warning per refused call, naming the code, without a stack; no error lines',
    async () => {
      const { logger, lines } = captureLogger();
      const logged = await startMockServer({
        stateUrl: redis.url,
        statePrefix: freshPrefix(),
        stateTimeout: STATE_TIMEOUT_MS,
        logger,
      });
      try {
        await redis.stop();
        const res = await fetch(`${logged.origin}/__admin/health`, {
          signal: AbortSignal.timeout(HANG_MS),
        });
        expect(res.status).toBe(503);
        const body = (await res.json()) as { message: string };
        expect(body.message).toBe(unavailableMessage());
        const refusals = lines.filter((line) => line.code === 'state_unavailable');
        expect(refusals.length).toBeGreaterThan(0);
        expect(refusals.every((line) => line.level === 40 && line.err === undefined)).toBe(true);
        // The log keeps what the Redis client said, which the answer leaves out.
        for (const line of refusals) {
          expect(line.msg).toBe(unavailableMessage());
          expect(line.storeSaid).toEqual(expect.stringMatching(/\S/));
          expect(body.message).not.toContain(String(line.storeSaid));
        }
        expect(lines.filter((line) => line.level === 50)).toEqual([]);
      } finally {
        await logged.close();
      }
    },
    SLOW,
  );
});
