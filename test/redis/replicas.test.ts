// Two mock processes on one Redis (issue 23, item 6), as replicas behind a load balancer: what one
// stores, switches or records, the other serves; a replica killed mid-write loses nothing it
// acknowledged; Redis going away and coming back loses nothing either.
import type { CoverageReport } from '../../src/state/coverage-report.js';
import type { JournalEntry } from '../../src/state/request-journal.js';
import { pollUntil } from '../helpers/poll-until.js';
import { killAllClis, startCli, type RunningCli } from '../helpers/process-cli.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';
import { freshPrefix } from '../helpers/state-backend.js';

/** Processes and servers start slowly on a loaded machine: a generous bound, no timing goal. */
const SLOW = 120_000;
const AUTH = { Authorization: 'Bearer replicas' };

/** Two replicas on one prefix of one Redis. */
interface Replicas {
  redis: TestRedis;
  a: RunningCli;
  b: RunningCli;
  start(): Promise<RunningCli>;
}

async function startReplicas(persist: boolean): Promise<Replicas> {
  const redis = await startRedis({ persist });
  const prefix = freshPrefix();
  const start = () => startCli(['--port', '0', '--state-url', redis.url, '--state-prefix', prefix]);
  const [a, b] = await Promise.all([start(), start()]);
  return { redis, a, b, start };
}

/** The replica's origin (its admin API is below it). */
function originOf(cli: RunningCli): string {
  return new URL(cli.url).origin;
}

function headers(session?: string, more: Record<string, string> = {}): Record<string, string> {
  return { ...AUTH, ...(session === undefined ? {} : { 'X-Mock-Session': session }), ...more };
}

/** POST /pets through a replica: the status and the body's text. */
async function create(cli: RunningCli, name: string, session?: string) {
  const res = await fetch(`${cli.url}/pets`, {
    method: 'POST',
    headers: headers(session, { 'Content-Type': 'application/json' }),
    body: JSON.stringify({ name, categoryId: 7, status: 'pending' }),
  });
  return { status: res.status, text: await res.text() };
}

/** The id in a created pet's text, as its digits. */
function idOf(text: string): string {
  const match = /"id":(\d+)/.exec(text);
  if (!match?.[1]) throw new Error(`no id in ${text}`);
  return match[1];
}

async function get(cli: RunningCli, path: string, session?: string) {
  const res = await fetch(`${cli.url}${path}`, { headers: headers(session) });
  return { status: res.status, text: await res.text() };
}

async function names(cli: RunningCli, session?: string): Promise<string[]> {
  const { text } = await get(cli, '/pets?limit=100', session);
  return (JSON.parse(text) as { name: string }[]).map((pet) => pet.name);
}

/** Runs `work` over `items`, at most `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map(work));
  }
}

/** Ids (as digits) of acknowledged creates whose text the other replica does not give back. */
async function lostThrough(cli: RunningCli, acknowledged: Map<string, string>, session?: string) {
  const lost: string[] = [];
  await inBatches([...acknowledged], 50, async ([id, text]) => {
    const got = await get(cli, `/pets/${id}`, session);
    if (got.status !== 200 || got.text !== text) lost.push(id);
  });
  return lost;
}

/** Writers creating pets through `cli` until told to stop; the 201s are kept by id. */
function writeUntil(
  cli: RunningCli,
  stop: () => boolean,
  acknowledged: Map<string, string>,
  session: string,
  count = 8,
): Promise<void> {
  const writers = Promise.all(
    Array.from({ length: count }, async (_, writer) => {
      for (let i = 0; !stop(); i += 1) {
        try {
          const { status, text } = await create(cli, `w${writer}-${i}`, session);
          if (status === 201) acknowledged.set(idOf(text), text);
        } catch {
          return; // the replica went away: this create was never acknowledged
        }
      }
    }),
  );
  return writers.then(() => undefined);
}

describe('two replicas on one Redis', () => {
  let replicas: Replicas;

  beforeAll(async () => {
    replicas = await startReplicas(false);
  }, SLOW);

  afterAll(async () => {
    await killAllClis();
    await replicas.redis.close();
  });

  it(
    'serves a pet created through A through B, the body identical',
    async () => {
      const { a, b } = replicas;
      const created = await create(a, 'Across', 'across');
      expect(created.status).toBe(201);
      const got = await get(b, `/pets/${idOf(created.text)}`, 'across');
      expect(got).toEqual({ status: 200, text: created.text });
      expect(await names(b, 'across')).toContain('Across');
    },
    SLOW,
  );

  it(
    "keeps a session's pets in that session on both replicas, and outside it on neither",
    async () => {
      const { a, b } = replicas;
      const created = await create(a, 'Isolated', 'iso-1');
      const id = idOf(created.text);
      for (const cli of [a, b]) {
        expect(await get(cli, `/pets/${id}`, 'iso-1')).toEqual({ status: 200, text: created.text });
        expect(await names(cli, 'iso-1')).toContain('Isolated');
        expect(await names(cli)).not.toContain('Isolated');
        expect(await names(cli, 'iso-2')).not.toContain('Isolated');
        expect((await get(cli, `/pets/${id}`, 'iso-2')).status).toBe(404);
      }
    },
    SLOW,
  );

  it(
    'fires a scenario switched on A for the next 5 requests exactly 5 times over 20 sent to B at once',
    async () => {
      const { a, b } = replicas;
      const switched = await fetch(`${originOf(a)}/__admin/scenario`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'five' },
        body: JSON.stringify({ name: 'not-found', times: 5 }),
      });
      expect(switched.status).toBe(204);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async () => (await get(b, '/pets/1', 'five')).status),
      );
      expect(statuses.filter((status) => status === 404)).toHaveLength(5);
      expect(statuses.filter((status) => status === 200)).toHaveLength(15);
      const active = await fetch(`${originOf(a)}/__admin/scenarios`, {
        headers: { 'X-Mock-Session': 'five' },
      });
      expect(((await active.json()) as { active: unknown }).active).toBeNull();
    },
    SLOW,
  );

  it(
    'gives 1,000 concurrent creates split over A and B 1,000 distinct ids, each readable through the other',
    async () => {
      const { a, b } = replicas;
      const results = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const via = i % 2 === 0 ? a : b;
          const created = await create(via, `thousand-${i}`, 'thousand');
          expect(created.status).toBe(201);
          return { via, text: created.text };
        }),
      );
      const ids = results.map(({ text }) => idOf(text));
      expect(new Set(ids).size).toBe(1000);
      const lost: string[] = [];
      await inBatches(results, 50, async ({ via, text }) => {
        const other = via === a ? b : a;
        const got = await get(other, `/pets/${idOf(text)}`, 'thousand');
        if (got.status !== 200 || got.text !== text) lost.push(idOf(text));
      });
      expect(lost).toEqual([]);
    },
    SLOW,
  );

  it(
    "includes what A answered in B's journal and coverage",
    async () => {
      const { a, b } = replicas;
      const sent: string[] = [];
      for (const [path, id] of [
        ['/pets', 'journal-1'],
        ['/pets/1', 'journal-2'],
        ['/pets/424242', 'journal-3'],
      ] as const) {
        const res = await fetch(`${a.url}${path}`, {
          headers: headers('records', { 'X-Request-Id': id }),
        });
        await res.arrayBuffer();
        sent.push(id);
      }
      // Records go to Redis after the answer, batched: B sees them soon, not at once.
      let journal: JournalEntry[] = [];
      await pollUntil(async () => {
        const res = await fetch(`${originOf(b)}/__admin/requests`, {
          headers: { 'X-Mock-Session': 'records' },
        });
        journal = ((await res.json()) as { requests: JournalEntry[] }).requests;
        return journal.length >= sent.length;
      }, "A's requests in B's journal");
      expect(journal.map((entry) => [entry.requestId, entry.status])).toEqual([
        ['journal-3', 404],
        ['journal-2', 200],
        ['journal-1', 200],
      ]);
      const coverage = await fetch(`${originOf(b)}/__admin/coverage`, {
        headers: { 'X-Mock-Session': 'records' },
      });
      const report = (await coverage.json()) as CoverageReport;
      const counts = Object.fromEntries(
        report.operations.map((op) => [
          op.operationId,
          Object.fromEntries(
            Object.entries(op.statuses)
              .filter(([, status]) => status.count > 0)
              .map(([code, status]) => [code, status.count]),
          ),
        ]),
      );
      expect(counts).toEqual({ listPets: { 200: 1 }, getPet: { 200: 1, 404: 1 }, createPet: {} });
    },
    SLOW,
  );

  it(
    'loses no create A acknowledged when A is SIGKILLed under write load',
    async () => {
      const { b } = replicas;
      const victim = await replicas.start();
      const acknowledged = new Map<string, string>();
      let killed = false;
      const writers = writeUntil(victim, () => killed, acknowledged, 'kill');
      try {
        await pollUntil(() => acknowledged.size >= 200, '200 creates acknowledged');
        victim.child.kill('SIGKILL');
        expect((await victim.exited).signal).toBe('SIGKILL');
      } finally {
        killed = true;
        await writers;
      }
      expect(await lostThrough(b, acknowledged, 'kill')).toEqual([]);
    },
    SLOW,
  );
});

describe('two replicas while their Redis is stopped and started again', () => {
  let replicas: Replicas;

  beforeAll(async () => {
    replicas = await startReplicas(true);
  }, SLOW);

  afterAll(async () => {
    await killAllClis();
    await replicas.redis.close();
  });

  it(
    'answer 503 state_unavailable while it is away, serve after, and lose nothing acknowledged',
    async () => {
      const { redis, a, b } = replicas;
      const fromA = new Map<string, string>();
      const fromB = new Map<string, string>();
      let stopping = false;
      const writers = [
        writeUntil(a, () => stopping, fromA, 'outage', 4),
        writeUntil(b, () => stopping, fromB, 'outage', 4),
      ];
      try {
        await pollUntil(() => fromA.size >= 50 && fromB.size >= 50, '50 creates on each');
        await redis.stop();
        for (const cli of [a, b]) {
          for (const path of ['/pets', '/pets/1']) {
            const res = await fetch(`${cli.url}${path}`, { headers: headers('outage') });
            expect(res.status).toBe(503);
            expect(res.headers.get('retry-after')).toBe('1');
            expect(await res.json()).toMatchObject({ code: 'state_unavailable', status: 503 });
          }
          const health = await fetch(`${originOf(cli)}/__admin/health`);
          expect(health.status).toBe(503);
          expect(await health.json()).toMatchObject({
            code: 'state_unavailable',
            message: expect.stringContaining(redis.url) as unknown,
          });
        }
      } finally {
        stopping = true;
        await Promise.all(writers);
      }
      await redis.start();
      for (const cli of [a, b]) {
        await pollUntil(
          async () => (await fetch(`${originOf(cli)}/__admin/health`)).status === 200,
          'the replica serves again',
        );
      }
      expect(await lostThrough(b, fromA, 'outage')).toEqual([]);
      expect(await lostThrough(a, fromB, 'outage')).toEqual([]);
    },
    SLOW,
  );
});
