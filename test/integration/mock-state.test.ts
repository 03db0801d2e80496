// The MockState contract (src/state/mock-state.ts), the same cases on every backend: jest runs this
// file in the memory project and again in the redis project (test/helpers/state-backend.ts).
import { COVERAGE_LIMITS, type CoveredAnswer } from '../../src/state/coverage-tally.js';
import type { FinishedCall, MockState, SessionId } from '../../src/state/mock-state.js';
import type { Pet } from '../../src/state/pet.js';
import { journalEntryOf, type JournalRecord } from '../../src/state/request-journal.js';
import { petCost, StoreFullError } from '../../src/state/store-limits.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { pollUntil } from '../helpers/poll-until.js';
import { itOnRedis, testBackend } from '../helpers/state-backend.js';
import { openTestState } from '../helpers/test-app.js';

const ALL = { limit: Number.MAX_SAFE_INTEGER };

/** Initial pets with these ids. */
function petsWithIds(...ids: (number | bigint)[]): Pet[] {
  return ids.map((id) => ({ id, name: `initial-${String(id)}`, categoryId: 1 }));
}

function stateWith(ids: (number | bigint)[], options: Parameters<typeof openTestState>[0] = {}) {
  return openTestState({ initial: storeDataFrom(petsWithIds(...ids)), ...options });
}

/**
 * `count` creates on one session, all started at once; each settles as it does. Each name has
 * nine characters, so every pet with a four-digit id costs the same (petCost).
 */
function createMany(state: MockState, session: SessionId, count: number, name = 'p') {
  return Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      state.createPet(session, { name: `${name}${i}`.padEnd(9, '-'), categoryId: 1 }),
    ),
  );
}

function idsOf(results: PromiseSettledResult<Pet>[]): bigint[] {
  return results.flatMap((result) =>
    result.status === 'fulfilled' ? [BigInt(result.value.id)] : [],
  );
}

/** The ids from `first`, `count` of them. */
function range(first: bigint, count: number): bigint[] {
  return Array.from({ length: count }, (_, i) => first + BigInt(i));
}

const sorted = (ids: bigint[]): bigint[] => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

let requests = 0;

/** A finished pet API call, as the request steps hand it to recordCall. */
function call(
  session: SessionId,
  coverage: CoveredAnswer,
  journal: Partial<JournalRecord> = {},
  authenticated = true,
): FinishedCall {
  requests += 1;
  return {
    session,
    authenticated,
    journal: {
      time: Date.now(),
      requestId: `request-${String(requests).padStart(6, '0')}`,
      method: 'GET',
      path: '/v1/pets',
      query: '',
      operationId: 'listPets',
      status: 200,
      scenario: null,
      validationErrors: [],
      ...journal,
    },
    coverage,
  };
}

const LIST_200: CoveredAnswer = {
  kind: 'operation',
  operationId: 'listPets',
  status: 200,
  forced: false,
  brokeContract: false,
};

describe(`MockState on ${testBackend}: ids`, () => {
  it('1,000 concurrent creates get 1,000 distinct ids, the next ones of the session', async () => {
    const state = await stateWith([1, 2, 3]);
    const results = await createMany(state, undefined, 1000);
    expect(sorted(idsOf(results))).toEqual(range(4n, 1000));
    const listed = await state.listPets(undefined, ALL);
    expect(listed.map((pet) => BigInt(pet.id))).toEqual(range(1n, 1003));
  });

  it('counts each session on its own, and never hands an id out twice in one', async () => {
    const state = await stateWith([1, 2, 3]);
    const [a, b] = await Promise.all([
      createMany(state, 'ids-a', 300),
      createMany(state, 'ids-b', 300),
    ]);
    expect(sorted(idsOf(a))).toEqual(range(4n, 300));
    expect(sorted(idsOf(b))).toEqual(range(4n, 300));
    expect((await state.getPet('ids-a', 4))?.name).toMatch(/^p/);
    expect(await state.getPet(undefined, 4)).toBeUndefined();
  });

  it('counts pets with a status and pets without on one counter: one id each, in order', async () => {
    const state = await stateWith([1, 2, 3]);
    const statuses = ['pending', undefined, 'sold', 'available', undefined, 'pending'] as const;
    const created: Pet[] = [];
    for (const [i, status] of statuses.entries()) {
      const newPet = { name: `mixed-${String(i)}`, categoryId: 1 };
      created.push(await state.createPet('mixed', status ? { ...newPet, status } : newPet));
    }
    expect(created.map((pet) => BigInt(pet.id))).toEqual(range(4n, statuses.length));
    expect(created.map((pet) => pet.status)).toEqual(statuses);
    const concurrent = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        state.createPet('mixed', {
          name: `mixed-c${String(i)}`,
          categoryId: 1,
          ...(i % 2 === 0 ? { status: 'sold' as const } : {}),
        }),
      ),
    );
    expect(sorted(concurrent.map((pet) => BigInt(pet.id)))).toEqual(range(10n, 100));
    for (const pet of [...created, ...concurrent]) {
      expect(await state.getPet('mixed', pet.id)).toEqual(pet);
    }
    const pending = await state.listPets('mixed', { ...ALL, status: 'pending' });
    expect(pending.map((pet) => pet.name)).toEqual(['mixed-0', 'mixed-5']);
  });

  it.each([
    ['beyond 2^53', 9007199254740993n, '9007199254740994'],
    ['near 2^63 - 1', 9223372036854775799n, '9223372036854775800'],
    ['up to 2^63 - 1', 9223372036854775806n, '9223372036854775807'],
    ['where the digits grow', 999n, '1000'],
  ])('the next id %s has its digits exact', async (_label, last, next) => {
    const state = await stateWith([1, last]);
    const pet = await state.createPet(undefined, { name: 'next', categoryId: 1 });
    expect(String(pet.id)).toBe(next);
    expect(pet.id).toBe(
      BigInt(next) > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(next) : Number(next),
    );
    expect(await state.getPet(undefined, pet.id)).toEqual(pet);
    expect((await state.listPets(undefined, ALL)).at(-1)).toEqual(pet);
    // Ids beyond 2^53 are told apart by their digits, not as rounded doubles.
    if (typeof pet.id === 'bigint')
      expect(await state.getPet(undefined, pet.id + 1n)).toBeUndefined();
  });
});

describe(`MockState on ${testBackend}: budgets`, () => {
  const pet = { name: 'same-size', categoryId: 1 };
  /** What one such pet with a 4-digit id is charged. */
  const cost = petCost({ id: 1000, ...pet });

  it('refuses the create past maxPets with nothing stored and no id used', async () => {
    const state = await stateWith([999], { maxPets: 2 });
    await state.createPet(undefined, pet);
    await state.createPet(undefined, pet);
    await expect(state.createPet(undefined, pet)).rejects.toBeInstanceOf(StoreFullError);
    expect(await state.petCount()).toBe(3);
    await state.reset(undefined);
    expect((await state.createPet(undefined, pet)).id).toBe(1000);
  });

  it('refuses a create past maxStoreBytes whole: the next one that fits gets the next id', async () => {
    const state = await stateWith([999], { maxStoreBytes: 3 * cost });
    expect((await state.createPet(undefined, pet)).id).toBe(1000);
    const big = { name: 'x'.repeat(3 * cost), categoryId: 1 };
    const refused = state.createPet(undefined, big);
    await expect(refused).rejects.toBeInstanceOf(StoreFullError);
    await expect(refused).rejects.toMatchObject({ status: 507, code: 'store_full' });
    expect(await state.petCount()).toBe(2);
    expect((await state.createPet(undefined, pet)).id).toBe(1001);
  });

  it('shares maxStoreBytes among sessions, exactly, and a reset gives back exactly its charge', async () => {
    const state = await stateWith([999], { maxStoreBytes: 10 * cost });
    const first = await Promise.all([
      createMany(state, 'bytes-a', 4, 'aaaa'),
      createMany(state, 'bytes-b', 8, 'bbbb'),
    ]);
    const kept = first.flat().filter((result) => result.status === 'fulfilled');
    expect(kept).toHaveLength(10);
    await expect(state.createPet('bytes-c', pet)).rejects.toBeInstanceOf(StoreFullError);
    const aKept = idsOf(first[0]).length;
    await state.reset('bytes-a');
    // Exactly what a's pets took comes back: that many fit again, and not one more.
    const again = await createMany(state, 'bytes-c', aKept + 1, 'cccc');
    expect(idsOf(again)).toHaveLength(aKept);
    expect(again.filter((result) => result.status === 'rejected')).toHaveLength(1);
  });

  it('after a reset racing creates, pets, ids and budget agree: no half state', async () => {
    const budget = 200;
    const state = await stateWith([999], { maxStoreBytes: budget * cost });
    const before = createMany(state, undefined, 100, 'racer');
    const reset = state.reset(undefined);
    const after = createMany(state, undefined, 100, 'racer');
    await Promise.all([before, reset, after]);
    const own = (await state.listPets(undefined, ALL)).filter((p) => p.id !== 999);
    // Whatever interleaved, the pets left are one run of ids from the start, each once...
    expect(own.map((p) => BigInt(p.id))).toEqual(range(1000n, own.length));
    // ...the next id follows them...
    expect(BigInt((await state.createPet(undefined, pet)).id)).toBe(1000n + BigInt(own.length));
    // ...and the budget holds exactly what they took: the rest of it fits, and not one more.
    const rest = budget - own.length - 1;
    const fill = await createMany(state, 'fill', rest + 1, 'fill');
    expect(idsOf(fill)).toHaveLength(rest);
  });
});

describe(`MockState on ${testBackend}: scenario switches`, () => {
  it('"on for the next N" fires exactly N times under 50 concurrent requests', async () => {
    const state = await stateWith([1]);
    await state.activate('next-n', 'not-found', 5);
    const taken = await Promise.all(
      Array.from({ length: 50 }, () => state.beginCall('next-n', ['not-found', 'other'])),
    );
    expect(taken.filter((name) => name === 'not-found')).toHaveLength(5);
    expect(await state.active('next-n')).toBeNull();
  });

  it('counts only matching requests, and a reset returns to the start-up scenario', async () => {
    const state = await stateWith([1], { startupScenario: 'slow' });
    await state.activate(undefined, 'not-found', 2);
    expect(await state.beginCall(undefined, ['other'])).toBeUndefined();
    expect(await state.beginCall(undefined, undefined)).toBeUndefined();
    expect(await state.active(undefined)).toEqual({ name: 'not-found', remaining: 2 });
    expect(await state.beginCall(undefined, ['not-found'])).toBe('not-found');
    expect(await state.active(undefined)).toEqual({ name: 'not-found', remaining: 1 });
    await state.reset(undefined);
    expect(await state.active(undefined)).toEqual({ name: 'slow', remaining: null });
    await state.deactivate(undefined);
    expect(await state.active(undefined)).toBeNull();
  });

  it("switches off a gone scenario's switch in every session, and no other switch", async () => {
    const state = await stateWith([1]);
    await state.activate(undefined, 'gone');
    await state.activate('off-a', 'gone', 3);
    await state.activate('off-b', 'kept');
    const off = await state.switchOff(['kept']);
    expect(off).toHaveLength(2);
    expect(off).toEqual(
      expect.arrayContaining([
        { session: null, scenario: 'gone' },
        { session: 'off-a', scenario: 'gone' },
      ]),
    );
    expect(await state.active(undefined)).toBeNull();
    expect(await state.active('off-a')).toBeNull();
    expect(await state.active('off-b')).toEqual({ name: 'kept', remaining: null });
    expect(await state.beginCall('off-a', ['gone'])).toBeUndefined();
  });
});

describe(`MockState on ${testBackend}: the journal`, () => {
  it('keeps at most journalSize entries per session, newest first', async () => {
    const state = await stateWith([1], { journalSize: 5 });
    const calls = Array.from({ length: 8 }, () => call('journal-a', LIST_200));
    for (const each of calls) state.recordCall(each);
    state.recordCall(call('journal-b', LIST_200));
    const kept = await state.journal('journal-a', 100);
    expect(kept.map((entry) => entry.requestId)).toEqual(
      calls
        .slice(3)
        .reverse()
        .map((each) => each.journal.requestId),
    );
    expect(await state.journal('journal-b', 100)).toHaveLength(1);
    expect(await state.journal('journal-a', 2)).toHaveLength(2);
  });

  it('keeps at most journalBytes per session: the oldest entries go first', async () => {
    const one = journalEntryOf(call(undefined, LIST_200).journal, Number.POSITIVE_INFINITY);
    if (!one) throw new Error('an entry that fits nowhere');
    const state = await stateWith([1], { journalShare: 3 * one.cost });
    const calls = Array.from({ length: 6 }, () => call('bytes', LIST_200));
    for (const each of calls) state.recordCall(each);
    state.recordCall(call(undefined, LIST_200));
    const kept = await state.journal('bytes', 100);
    expect(kept.map((entry) => entry.requestId)).toEqual(
      calls
        .slice(3)
        .reverse()
        .map((each) => each.journal.requestId),
    );
    expect(await state.journal(undefined, 100)).toHaveLength(1);
  });

  it('a reset empties the journal of the requests recorded before it', async () => {
    const state = await stateWith([1]);
    state.recordCall(call(undefined, LIST_200));
    await state.reset(undefined);
    expect(await state.journal(undefined, 10)).toEqual([]);
    const later = call(undefined, LIST_200);
    state.recordCall(later);
    expect((await state.journal(undefined, 10)).map((e) => e.requestId)).toEqual([
      later.journal.requestId,
    ]);
  });
});

describe(`MockState on ${testBackend}: coverage`, () => {
  it('counts statuses, forced answers, contract breaches, no answers and unmatched requests', async () => {
    const state = await stateWith([1]);
    const answers: [SessionId, CoveredAnswer][] = [
      [undefined, LIST_200],
      ['cov-a', LIST_200],
      ['cov-a', LIST_200],
      ['cov-a', { ...LIST_200, status: 400, forced: true }],
      ['cov-a', { ...LIST_200, status: 400 }],
      ['cov-b', { ...LIST_200, status: 502, brokeContract: true }],
      [
        'cov-b',
        {
          kind: 'operation',
          operationId: 'createPet',
          status: null,
          forced: false,
          brokeContract: false,
        },
      ],
      ['cov-b', { kind: 'unmatched', method: 'GET', path: '/v1/nowhere' }],
      ['cov-a', { kind: 'unmatched', method: 'GET', path: '/v1/nowhere' }],
      ['cov-a', { kind: 'unmatched', method: 'DELETE', path: '/v1/pets' }],
    ];
    for (const [session, answer] of answers) state.recordCall(call(session, answer));
    const suite = await state.coverage({ suite: true });
    expect(Object.fromEntries(suite?.statusesOf('listPets') ?? [])).toEqual({
      200: { count: 3, forced: 0, violations: 0 },
      400: { count: 2, forced: 1, violations: 0 },
      502: { count: 1, forced: 0, violations: 1 },
    });
    expect(suite?.noAnswerOf('createPet')).toBe(1);
    expect(suite?.unmatched()).toEqual([
      { method: 'GET', path: '/v1/nowhere', count: 2 },
      { method: 'DELETE', path: '/v1/pets', count: 1 },
    ]);
    const a = await state.coverage({ session: 'cov-a' });
    expect(Object.fromEntries(a?.statusesOf('listPets') ?? [])).toEqual({
      200: { count: 2, forced: 0, violations: 0 },
      400: { count: 2, forced: 1, violations: 0 },
    });
    expect(a?.unmatched().map((u) => u.count)).toEqual([1, 1]);
    await state.reset('cov-a');
    expect(
      (await state.coverage({ session: 'cov-a' }))?.statusesOf('listPets').get(200)?.count,
    ).toBe(2);
    await state.clearCoverage('cov-a');
    expect((await state.coverage({ session: 'cov-a' }))?.statusesOf('listPets').size).toBe(0);
    expect((await state.coverage({ suite: true }))?.statusesOf('listPets').get(200)?.count).toBe(3);
    await state.clearCoverage(undefined);
    expect((await state.coverage({ suite: true }))?.statusesOf('listPets').size).toBe(0);
    expect((await state.coverage({ session: 'cov-b' }))?.noAnswerOf('createPet')).toBe(0);
  });

  it('keeps the unmatched requests most seen, each counted exactly while there is room', async () => {
    const state = await stateWith([1]);
    const unmatched = (path: string): FinishedCall =>
      call(undefined, { kind: 'unmatched', method: 'GET', path });
    for (let i = 0; i < 5; i += 1) state.recordCall(unmatched('/v1/often'));
    for (let i = 0; i < COVERAGE_LIMITS.unmatched + 50; i += 1)
      state.recordCall(unmatched(`/v1/once-${i}`));
    for (let i = 0; i < 3; i += 1) state.recordCall(unmatched('/v1/often'));
    const kept = (await state.coverage({ suite: true }))?.unmatched() ?? [];
    expect(kept.length).toBeLessThanOrEqual(COVERAGE_LIMITS.unmatched);
    // Seen more often than total / capacity: kept, and counted exactly (it never left).
    expect(kept[0]).toEqual({ method: 'GET', path: '/v1/often', count: 8 });
    // A count is never more than was seen since the key was taken in.
    expect(kept.slice(1).every((entry) => entry.count === 1)).toBe(true);
    // A path longer than kept is cut, and ends with …
    state.recordCall(unmatched(`/v1/${'x'.repeat(500)}`));
    await state.clearCoverage(undefined);
    state.recordCall(unmatched(`/v1/${'x'.repeat(500)}`));
    const [long] = (await state.coverage({ suite: true }))?.unmatched() ?? [];
    expect(long?.path).toHaveLength(COVERAGE_LIMITS.path + 1);
    expect(long?.path.endsWith('…')).toBe(true);
  });
});

describe(`MockState on ${testBackend}: sessions`, () => {
  const isLive = async (state: MockState, id: string): Promise<boolean> =>
    (await state.sessions()).some((session) => session.id === id);

  it('reads neither create a session nor make one more recent', async () => {
    const state = await stateWith([1], { maxSessions: 2 });
    await state.beginCall('read-z', undefined);
    await state.beginCall('read-a', undefined);
    for (const session of ['read-z', 'read-ghost']) {
      await state.active(session);
      await state.journal(session, 10);
      await state.coverage({ session });
      await state.sessions();
    }
    expect(await isLive(state, 'read-ghost')).toBe(false);
    expect(await state.coverage({ session: 'read-ghost' })).toBeUndefined();
    await state.beginCall('read-c', undefined);
    // z was used before a, and the reads did not count: z goes.
    expect((await state.sessions()).map((s) => s.id)).toEqual([null, 'read-c', 'read-a']);
  });

  it('drops the least recently used named session at maxSessions, with what it held', async () => {
    const state = await stateWith([1], { maxSessions: 2, maxStoreBytes: 1024 * 1024 });
    // Names in the opposite order to their use: the order kept is by use, not by name.
    await state.createPet('lru-z', { name: 'z', categoryId: 1 });
    await state.activate('lru-z', 'not-found');
    await state.createPet('lru-y', { name: 'y', categoryId: 1 });
    await state.createPet('lru-z', { name: 'z2', categoryId: 1 });
    state.recordCall(call('lru-y', LIST_200));
    state.recordCall(call('lru-z', LIST_200));
    await state.createPet('lru-a', { name: 'a', categoryId: 1 });
    expect((await state.sessions()).map((s) => s.id)).toEqual([null, 'lru-a', 'lru-z']);
    expect(await state.journal('lru-y', 10)).toEqual([]);
    expect(await state.coverage({ session: 'lru-y' })).toBeUndefined();
    expect(await state.active('lru-z')).toEqual({ name: 'not-found', remaining: null });
    // Back as new: the initial pets and id counter.
    await state.beginCall('lru-y', undefined);
    expect((await state.listPets('lru-y', ALL)).map((p) => p.name)).toEqual(['initial-1']);
    expect((await state.createPet('lru-y', { name: 'again', categoryId: 1 })).id).toBe(2);
  });

  it('never drops the default session', async () => {
    const state = await stateWith([1], { maxSessions: 1 });
    await state.createPet(undefined, { name: 'kept', categoryId: 1 });
    for (const id of ['d-a', 'd-b', 'd-c']) await state.beginCall(id, undefined);
    expect((await state.listPets(undefined, ALL)).map((p) => p.name)).toEqual([
      'initial-1',
      'kept',
    ]);
  });

  itOnRedis('sessions expire by --session-ttl only on Redis; memory keeps them until the LRU')(
    'drops a session unused for sessionTtl, and gives back what its pets were charged',
    async () => {
      const pet = { name: 'ttl', categoryId: 1 };
      const cost = petCost({ id: 2, ...pet });
      const state = await stateWith([1], { sessionTtl: 1000, maxStoreBytes: cost });
      await state.createPet('ttl-a', pet);
      await expect(state.createPet('ttl-b', pet)).rejects.toBeInstanceOf(StoreFullError);
      await pollUntil(async () => !(await isLive(state, 'ttl-a')), 'ttl-a expired');
      // A session opened after the expiry finds the budget given back.
      expect((await state.createPet('ttl-b', pet)).id).toBe(2);
      await state.beginCall('ttl-a', undefined);
      expect(await state.listPets('ttl-a', ALL)).toHaveLength(1);
    },
  );
});
