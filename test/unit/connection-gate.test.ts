// The connection gate in front of a stand-in app whose answers have a chosen size, on real sockets
// (port 0): how many requests reach the app while a client does not read, and in what order.
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pino } from 'pino';
import {
  createConnectionGate,
  type ConnectionGate,
  type GateLimits,
  type PressureRule,
} from '../../src/server/connection-gate.js';
import { countAnswers, eventually, openRaw, type RawConnection } from '../helpers/raw-socket.js';

/** Generous bound for socket tests on a busy machine (not a timing assertion). */
const SLOW = 30_000;
const WAIT_MS = 8_000;
const MIB = 1024 * 1024;

const LIMITS: GateLimits = {
  maxQueuedBytes: MIB,
  maxQueuedTotal: 64 * MIB,
  maxPipelined: 1000,
  writeTimeout: 30_000,
};

interface Harness {
  readonly port: number;
  /** Requests the app was handed, by path, in order. */
  readonly handled: string[];
  /** The most requests of one connection the app was handling at once. */
  readonly mostAtOnce: () => number;
  /**
   * For each request the app was handed, its connection's answer bytes not yet taken by the
   * kernel then: in the socket, or queued in earlier answers (Node keeps them in the response).
   */
  readonly untakenAtHandOn: number[];
  /** The untaken answer bytes of the connection of the request handed on last. */
  readonly untakenNow: () => number;
  readonly warnings: string[];
}

let servers: { server: Server; gate: ConnectionGate }[] = [];
const opened: RawConnection[] = [];

afterEach(async () => {
  for (const connection of opened.splice(0)) connection.socket.destroy();
  await Promise.all(
    servers.map(
      ({ server, gate }) =>
        new Promise<void>((resolve) => {
          gate.close();
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    ),
  );
  servers = [];
});

/**
 * A server whose app answers `/<bytes>` with that many bytes, after `delayMs` when given
 * (`/<bytes>/<delayMs>`); the gate in front of it.
 */
async function serve(limits: Partial<GateLimits> = {}, pressure?: PressureRule): Promise<Harness> {
  const handled: string[] = [];
  const warnings: string[] = [];
  const untakenAtHandOn: number[] = [];
  const answers = new Map<Socket, ServerResponse[]>();
  let lastSocket: Socket | undefined;
  const untakenOf = (socket: Socket): number =>
    (answers.get(socket) ?? [])
      .filter((answer) => answer.socket === null)
      .reduce((bytes, answer) => bytes + answer.writableLength, socket.writableLength);
  let atOnce = 0;
  let most = 0;
  const app: RequestListener = (req, res) => {
    const [size = '0', delay] = (req.url ?? '/').slice(1).split('/');
    handled.push(req.url ?? '');
    untakenAtHandOn.push(untakenOf(req.socket));
    answers.set(req.socket, [...(answers.get(req.socket) ?? []), res]);
    lastSocket = req.socket;
    atOnce += 1;
    most = Math.max(most, atOnce);
    const answer = (): void => {
      atOnce -= 1;
      res.setHeader('X-Path', req.url ?? '');
      res.end(Buffer.alloc(Number(size), 'a'));
    };
    if (delay === undefined) answer();
    else setTimeout(answer, Number(delay));
  };
  const logger = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed === 'object' && parsed !== null && 'msg' in parsed) {
          warnings.push(String(parsed.msg));
        }
      },
    },
  );
  const gate = createConnectionGate(app, { ...LIMITS, ...limits }, logger, pressure);
  const server = createServer(gate.listener);
  servers.push({ server, gate });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const { port } = address;
  const untakenNow = (): number => (lastSocket ? untakenOf(lastSocket) : 0);
  return { port, handled, mostAtOnce: () => most, untakenAtHandOn, untakenNow, warnings };
}

async function open(port: number, read = true): Promise<RawConnection> {
  const connection = await openRaw(port, { read });
  opened.push(connection);
  return connection;
}

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('a connection that pipelines and does not read', () => {
  it(
    'is handed on only while its untaken answer bytes are within maxQueuedBytes',
    async () => {
      const { port, handled, untakenAtHandOn, untakenNow } = await serve();
      const connection = await open(port, false);
      connection.socket.write(get(`/${MIB}`).repeat(40)); // 40 MiB of answers, none read
      // Once the kernel is full (a few MiB, never 40), the untaken bytes pass the budget: the
      // gate holds the rest (all 40 go at once without it).
      expect(await eventually(() => untakenNow() > MIB, WAIT_MS)).toBe(true);
      expect(handled.length).toBeLessThan(40);
      connection.socket.resume(); // it reads now: every answer comes, in order
      expect(await eventually(() => countAnswers(connection.received(), 200) === 40, WAIT_MS)).toBe(
        true,
      );
      expect(handled).toHaveLength(40);
      // Each request went on only while the answers before it were within budget.
      expect(untakenAtHandOn.filter((bytes) => bytes > MIB)).toEqual([]);
    },
    SLOW,
  );

  it(
    'is handed on one request at a time, its answers in the order asked',
    async () => {
      const { port, handled, mostAtOnce } = await serve();
      const connection = await open(port);
      const paths = ['/10/60', '/20/10', '/30/30', '/40/0', '/50/20'];
      connection.socket.write(paths.map(get).join(''));
      expect(await eventually(() => countAnswers(connection.received(), 200) === 5, WAIT_MS)).toBe(
        true,
      );
      expect(mostAtOnce()).toBe(1);
      expect(handled).toEqual(paths);
      const order = [...connection.received().matchAll(/X-Path: (\S+)/g)].map((m) => m[1]);
      expect(order).toEqual(paths);
    },
    SLOW,
  );

  it(
    'is closed with more than maxPipelined requests unanswered, none of them handed on',
    async () => {
      const { port, handled, warnings } = await serve({ maxPipelined: 10 });
      const connection = await open(port, false);
      connection.socket.write(get('/1').repeat(11));
      expect(await eventually(() => warnings.length === 1, WAIT_MS)).toBe(true);
      expect(warnings[0]).toBe(
        'connection closed: more than 10 requests sent ahead of their answers',
      );
      expect(handled).toEqual([]);
    },
    SLOW,
  );

  it(
    'is closed when it takes none of its answers within writeTimeout',
    async () => {
      const { port, warnings } = await serve({ writeTimeout: 200 });
      const connection = await open(port, false);
      connection.socket.write(get(`/${10 * MIB}`));
      expect(await eventually(() => warnings.length === 1, WAIT_MS)).toBe(true);
      expect(warnings[0]).toBe('connection closed: took none of its answers for 200 ms');
    },
    SLOW,
  );
});

describe('the untaken bytes of all connections (maxQueuedTotal)', () => {
  it(
    'hold other connections back until the client that takes none is closed',
    async () => {
      const { port, handled, warnings } = await serve(
        { maxQueuedTotal: 2 * MIB, maxQueuedBytes: MIB },
        { stallMs: 300, minTakeBytesPerS: 1024 * MIB },
      );
      const stuck = await open(port, false);
      stuck.socket.write(get(`/${10 * MIB}`)); // more than the kernel takes
      expect(await eventually(() => handled.length === 1, WAIT_MS)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100)); // its answer is being written
      const reader = await open(port);
      reader.socket.write(get('/5'));
      expect(await eventually(() => countAnswers(reader.received(), 200) === 1, WAIT_MS)).toBe(
        true,
      );
      expect(warnings).toEqual([
        'connection closed: took none of its answers while others waited for the queued total',
      ]);
    },
    SLOW,
  );

  it(
    'let clients that read all be answered, however many large answers they ask at once',
    async () => {
      const { port, warnings } = await serve({ maxQueuedTotal: 4 * MIB, maxQueuedBytes: MIB });
      const readers = await Promise.all(Array.from({ length: 12 }, () => open(port)));
      for (const reader of readers) reader.socket.write(get(`/${2 * MIB}`).repeat(3));
      expect(
        await eventually(
          () => readers.every((reader) => countAnswers(reader.received(), 200) === 3),
          20_000,
        ),
      ).toBe(true);
      expect(warnings).toEqual([]);
    },
    SLOW,
  );
});

describe('mayAnswerRaw', () => {
  it('is true for a socket with nothing in flight, false while an answer is pending', async () => {
    const { port } = await serve();
    const connection = await open(port);
    connection.socket.write(get('/1/300'));
    const gate = servers.at(-1)?.gate;
    const server = servers.at(-1)?.server;
    expect(gate && server).toBeTruthy();
    const sockets: Socket[] = [];
    server?.on('request', (req) => sockets.push(req.socket));
    await eventually(() => sockets.length === 1, WAIT_MS);
    const [socket] = sockets;
    if (socket === undefined || gate === undefined) throw new Error('no request seen');
    expect(gate.mayAnswerRaw(socket)).toBe(false); // complete request, answer pending
    expect(await eventually(() => countAnswers(connection.received(), 200) === 1, WAIT_MS)).toBe(
      true,
    );
    expect(gate.mayAnswerRaw(socket)).toBe(true);
  });
});
