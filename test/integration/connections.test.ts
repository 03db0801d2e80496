// The HTTP server's own bounds and answers, on real sockets: connections, pipelining, timeouts,
// and the requests Node's parser handles before the app (no Host, CONNECT, half-closed clients).
import { pino, type Logger } from 'pino';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/index.js';
import {
  answerOf,
  countAnswers,
  eventually,
  openRaw,
  within,
  type RawConnection,
} from '../helpers/raw-socket.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';
import { backendOptions } from '../helpers/state-backend.js';

/** Generous bound for socket tests on a busy machine (not a timing assertion). */
const SLOW = 30_000;
/** How long a test waits for something the server must do well before it (not a timing goal). */
const WAIT_MS = 8_000;
const AUTH = { Authorization: 'Bearer connections' };
const LIST = 'GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n';
const ONE_PET = LIST.replace('limit=100', 'limit=1');

let mocks: MockServer[] = [];
const opened: RawConnection[] = [];

async function start(options: MockServerOptions = {}): Promise<MockServer> {
  const mock = await startMockServer({ ...backendOptions(), ...options });
  mocks.push(mock);
  return mock;
}

async function open(mock: MockServer, read = true): Promise<RawConnection> {
  const connection = await openRaw(mock.port, { read });
  opened.push(connection);
  return connection;
}

afterEach(async () => {
  for (const connection of opened.splice(0)) connection.socket.destroy();
  await Promise.all(mocks.map((mock) => mock.close()));
  mocks = [];
});

/** Creates `count` pets with names of `length` characters, so that a list answer is large. */
async function createLargePets(mock: MockServer, count: number, length: number): Promise<void> {
  const body = JSON.stringify({ name: 'n'.repeat(length), categoryId: 1 });
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(201);
  }
}

/** A warn-level logger that keeps the messages it logs. */
function capturingLogger(): { logger: Logger; warnings: () => string[] } {
  const messages: string[] = [];
  const logger = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed === 'object' && parsed !== null && 'msg' in parsed) {
          messages.push(String(parsed.msg));
        }
      },
    },
  );
  return { logger, warnings: () => [...messages] };
}

/** How many list requests reached the app (the journal records each once its answer ends). */
async function listsHandled(mock: MockServer): Promise<number> {
  return (await mock.requests({ limit: 10_000 })).filter(
    (entry) => entry.operationId === 'listPets',
  ).length;
}

describe('answers Node gives without an Error body, or not at all', () => {
  it('answers an HTTP/1.1 request without Host 400 with the Error body', async () => {
    const mock = await start();
    const connection = await open(mock);
    connection.socket.write('GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer t\r\n\r\n');
    expect(await within(connection.closed, WAIT_MS)).toBe(true);
    const { statusLine, headers, body } = answerOf(connection.received());
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(headers).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(headers).toMatch(/x-content-type-options: nosniff/i);
    expect(body).toEqual({
      code: 'bad_request',
      message: 'An HTTP/1.1 request must carry a Host header.',
      status: 400,
    });
  });

  it('serves an HTTP/1.0 request without Host, which HTTP/1.0 allows', async () => {
    const mock = await start();
    const connection = await open(mock);
    connection.socket.write('GET /v1/pets?limit=1 HTTP/1.0\r\nAuthorization: Bearer t\r\n\r\n');
    expect(await within(connection.closed, WAIT_MS)).toBe(true);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers CONNECT 405 with the Error body and an empty Allow, then closes', async () => {
    const mock = await start();
    const connection = await open(mock);
    connection.socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(await within(connection.closed, WAIT_MS)).toBe(true);
    const { statusLine, headers, body } = answerOf(connection.received());
    expect(statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(headers).toMatch(/\r\nAllow: \r\n/);
    expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect((body as { message: string }).message).toContain('CONNECT');
  });

  it(
    'answers a client that half-closes its side right after sending',
    async () => {
      const dir = makeTmpDir();
      try {
        writeTmpFile(dir, 'brief.yaml', 'rules:\n  - operations: listPets\n    delay: 200\n');
        const mock = await start({ scenariosDir: dir });
        const connection = await open(mock);
        // The answer comes 200 ms after the client's FIN, as any answer that is not immediate.
        connection.socket.end(
          'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n' +
            'X-Mock-Scenario: brief\r\n\r\n',
        );
        expect(await within(connection.closed, WAIT_MS)).toBe(true);
        expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
      } finally {
        removeTmpDir(dir);
      }
    },
    SLOW,
  );
});

describe('a request with Connection: close, then more bytes on the socket (RFC 9112 §9.6)', () => {
  /** A create request for a pet of this name, with extra header lines. */
  const createPet = (name: string, extra = ''): string => {
    const body = JSON.stringify({ name, categoryId: 1 });
    return (
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`
    );
  };

  it('answers the first request in full, closes, and processes nothing after it', async () => {
    const mock = await start({ count: 0 });
    const connection = await open(mock);
    connection.socket.write(createPet('first', 'Connection: close\r\n') + createPet('second'));
    expect(await within(connection.closed, WAIT_MS)).toBe(true);
    expect(countAnswers(connection.received(), 201)).toBe(1);
    // One answer, whole: answerOf reads everything after the head as one JSON body.
    const { statusLine, headers, body } = answerOf(connection.received());
    expect(statusLine).toBe('HTTP/1.1 201 Created');
    expect(headers).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(body).toMatchObject({ name: 'first', categoryId: 1 });
    const res = await fetch(`${mock.url}/pets?limit=100`, { headers: AUTH });
    const pets = (await res.json()) as { name: string }[];
    expect(pets.map((pet) => pet.name)).toEqual(['first']);
    expect((await mock.requests({ limit: 100 })).map((entry) => entry.operationId)).toEqual([
      'listPets',
      'createPet',
    ]);
  });

  it('answers a GET with Connection: close once, and not the GET after it', async () => {
    const mock = await start();
    const connection = await open(mock);
    connection.socket.write(ONE_PET.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n') + LIST);
    expect(await within(connection.closed, WAIT_MS)).toBe(true);
    expect(countAnswers(connection.received(), 200)).toBe(1);
    const { statusLine, body } = answerOf(connection.received());
    expect(statusLine).toBe('HTTP/1.1 200 OK');
    expect(body).toHaveLength(1);
    expect(await listsHandled(mock)).toBe(1);
  });
});

describe('timeouts hold as configured (Node checks them every 30 s by default)', () => {
  it(
    'answers headers not complete within --headers-timeout 408, and closes',
    async () => {
      const mock = await start({ headersTimeout: 300, requestTimeout: 600 });
      const connection = await open(mock);
      connection.socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n'); // never finished
      expect(await within(connection.closed, WAIT_MS)).toBe(true);
      const { statusLine, body } = answerOf(connection.received());
      expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(body).toMatchObject({ code: 'request_timeout', status: 408 });
    },
    SLOW,
  );

  it(
    'answers a body not complete within --request-timeout 408',
    async () => {
      const mock = await start({ headersTimeout: 300, requestTimeout: 600 });
      const connection = await open(mock);
      connection.socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      );
      expect(await within(connection.closed, WAIT_MS)).toBe(true);
      const { statusLine, body } = answerOf(connection.received());
      expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(body).toMatchObject({ code: 'request_timeout', status: 408 });
    },
    SLOW,
  );

  it(
    'closes an idle keep-alive connection after --keep-alive-timeout',
    async () => {
      const mock = await start({ keepAliveTimeout: 200 });
      const connection = await open(mock);
      connection.socket.write('GET /__admin/health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await eventually(() => countAnswers(connection.received(), 200) === 1, WAIT_MS)).toBe(
        true,
      );
      expect(await within(connection.closed, WAIT_MS)).toBe(true);
    },
    SLOW,
  );
});

describe('--max-connections', () => {
  it(
    'closes connections past the cap without reading them, and serves again below it',
    async () => {
      const mock = await start({ maxConnections: 3 });
      // Three connections the server has surely accepted: each has had an answer.
      const held = await Promise.all([1, 2, 3].map(() => open(mock)));
      for (const connection of held) {
        connection.socket.write(ONE_PET);
      }
      expect(
        await eventually(
          () => held.every((connection) => countAnswers(connection.received(), 200) === 1),
          WAIT_MS,
        ),
      ).toBe(true);
      const refused = await open(mock);
      refused.socket.write(ONE_PET);
      expect(await within(refused.closed, WAIT_MS)).toBe(true);
      expect(refused.received()).toBe('');
      held[0]?.socket.destroy();
      let served = false;
      for (const deadline = Date.now() + WAIT_MS; !served && Date.now() < deadline;) {
        served = await fetch(`${mock.url}/pets?limit=1`, {
          headers: AUTH,
          signal: AbortSignal.timeout(2000),
        }).then(
          (res) => res.status === 200,
          () => false,
        );
      }
      expect(served).toBe(true);
    },
    SLOW,
  );
});

// How many requests reach the app while a client does not read: test/unit/connection-gate.test.ts.
describe('a connection that pipelines requests and does not read its answers', () => {
  it(
    'is closed once it has more than --max-pipelined requests unanswered',
    async () => {
      const mock = await start({ maxPipelined: 100 });
      const within100 = await open(mock);
      within100.socket.write(ONE_PET.repeat(100));
      expect(await eventually(() => countAnswers(within100.received(), 200) === 100, WAIT_MS)).toBe(
        true,
      );
      const over = await open(mock, false);
      over.socket.write(LIST.repeat(150));
      expect(await within(over.closed, WAIT_MS)).toBe(true);
      expect(await listsHandled(mock)).toBe(100); // none of the 150: closed before any was handed on
    },
    SLOW,
  );

  it(
    'is closed when it takes none of its answers within --write-timeout',
    async () => {
      const { logger, warnings } = capturingLogger();
      const mock = await start({ seed: 1, count: 0, writeTimeout: 300, logger });
      await createLargePets(mock, 60, 95_000); // each list answer: about 5.7 MB
      const connection = await open(mock, false);
      connection.socket.write(LIST.repeat(3));
      expect(
        await eventually(
          () => warnings().some((m) => m.includes('took none of its answers')),
          WAIT_MS,
        ),
      ).toBe(true);
      // It sees the close once it reads what the kernel holds: not all three answers.
      connection.socket.resume();
      expect(await within(connection.closed, WAIT_MS)).toBe(true);
      expect(countAnswers(connection.received(), 200)).toBeLessThan(3);
    },
    SLOW,
  );
});
