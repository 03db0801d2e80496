import { ScenarioSwitch } from '../../src/state/scenario-switch.js';
import { ruleFor, type Rule, type Scenario } from '../../src/contract/scenario.js';
import type { CoverageTally } from '../../src/state/coverage-tally.js';
import { createSessionFactory } from '../../src/state/create-session.js';
import { LocalState } from '../../src/state/local-state.js';
import type { FinishedCall, MockState } from '../../src/state/mock-state.js';
import { createMemoryStore } from '../../src/state/open-store.js';
import { Journal, type JournalRecord } from '../../src/state/request-journal.js';
import { InvalidSessionError, SessionRegistry } from '../../src/state/session-registry.js';
import { resetSession, type Session } from '../../src/state/session.js';
import { storeDataFrom } from '../../src/state/store-data.js';

function entry(n: number): JournalRecord {
  return {
    time: Date.UTC(2030, 0, 1, 0, 0, n),
    requestId: `r${n}`,
    method: 'GET',
    path: '/v1/pets',
    query: '',
    operationId: 'listPets',
    status: 200,
    scenario: null,
    validationErrors: [],
  };
}

function ids(journal: Journal, limit = 1000): string[] {
  return journal.list(limit).map((e) => e.requestId);
}

describe('Journal', () => {
  it('keeps a cut-down entry where its share is smaller than a whole one, never nothing', () => {
    const journal = new Journal(10, 648); // --journal-bytes 64k over the default 100 sessions
    const refused = {
      ...entry(1),
      path: `/v1/pets/${'9'.repeat(2000)}`,
      query: `limit=${'1'.repeat(2000)}`,
      status: 400,
      validationErrors: Array.from({ length: 30 }, (_, i) => `error ${i} ${'x'.repeat(600)}`),
    };
    journal.record(refused);
    const [kept] = journal.list(10);
    expect(kept).toMatchObject({ requestId: 'r1', status: 400 });
    expect(kept?.path.length).toBeLessThanOrEqual(33);
    expect(kept?.query.length).toBeLessThanOrEqual(33);
    expect(kept?.validationErrors[0]).toMatch(/^error 0 x+/);
    expect(kept?.validationErrors[1]).toBe('(and 29 more)');
    expect(journal.bytes).toBeLessThanOrEqual(648);
  });

  it('lists newest first', () => {
    const journal = new Journal(10);
    for (const n of [1, 2, 3]) journal.record(entry(n));
    expect(ids(journal)).toEqual(['r3', 'r2', 'r1']);
  });

  it('lists at most limit entries, the newest', () => {
    const journal = new Journal(10);
    for (const n of [1, 2, 3, 4]) journal.record(entry(n));
    expect(ids(journal, 2)).toEqual(['r4', 'r3']);
  });

  it('keeps only the last `capacity` entries, in order, as the ring wraps', () => {
    const journal = new Journal(3);
    for (const n of [1, 2, 3, 4, 5]) journal.record(entry(n));
    expect(ids(journal)).toEqual(['r5', 'r4', 'r3']);
    for (const n of [6, 7, 8, 9]) journal.record(entry(n));
    expect(ids(journal)).toEqual(['r9', 'r8', 'r7']);
  });

  it('keeps the newest `capacity` in order through many drops, charging only what it keeps', () => {
    const journal = new Journal(1000);
    for (let n = 1; n <= 5000; n += 1) journal.record(entry(n));
    const kept = ids(journal);
    expect(kept).toHaveLength(1000);
    expect(kept[0]).toBe('r5000');
    expect(kept.at(-1)).toBe('r4001');
    const one = new Journal(1);
    one.record(entry(5000)); // the kept ids, r4001 to r5000, are all as long as this one
    expect(journal.bytes).toBe(1000 * one.bytes);
  });

  it('keeps nothing with capacity 0', () => {
    const journal = new Journal(0);
    journal.record(entry(1));
    expect(journal.list(10)).toEqual([]);
  });

  it('keeps one with capacity 1', () => {
    const journal = new Journal(1);
    for (const n of [1, 2]) journal.record(entry(n));
    expect(ids(journal)).toEqual(['r2']);
  });

  it('is empty after clear, and records in order again', () => {
    const journal = new Journal(3);
    for (const n of [1, 2, 3, 4]) journal.record(entry(n));
    journal.clear();
    expect(journal.list(10)).toEqual([]);
    for (const n of [5, 6]) journal.record(entry(n));
    expect(ids(journal)).toEqual(['r6', 'r5']);
  });

  it('keeps entries as recorded, listing their time as an ISO date', () => {
    const journal = new Journal(2);
    journal.record(entry(1));
    expect(journal.list(1)).toEqual([{ ...entry(1), time: '2030-01-01T00:00:01.000Z' }]);
  });
});

const notFound: Scenario = {
  name: 'not-found',
  description: '',
  source: 'test',
  rules: [{ operations: ['getPet'], status: 404 }],
};
const unauthorized: Scenario = {
  name: 'unauthorized',
  description: '',
  source: 'test',
  rules: [{ operations: 'all', status: 401 }],
};
const known: ReadonlyMap<string, Scenario> = new Map([
  [notFound.name, notFound],
  [unauthorized.name, unauthorized],
]);

/** The names of the known scenarios with a rule for an operation: what a switch may take for it. */
function matching(operationId: string): string[] {
  return [...known.values()].filter((s) => ruleFor(s, operationId)).map((s) => s.name);
}

/** Takes the switch for an operation, as the scenario step does: the rule it forces, if any. */
function take(scenarios: ScenarioSwitch, operationId: string): Rule | undefined {
  const name = scenarios.take(matching(operationId));
  const scenario = name === undefined ? undefined : known.get(name);
  return scenario && ruleFor(scenario, operationId);
}

describe('ScenarioSwitch', () => {
  it('starts off without an initial scenario', () => {
    const scenarios = new ScenarioSwitch(undefined);
    expect(scenarios.active).toBeNull();
    expect(scenarios.take(matching('getPet'))).toBeUndefined();
  });

  it('answers the matching rule until switched off', () => {
    const scenarios = new ScenarioSwitch(undefined);
    scenarios.activate('not-found');
    for (let i = 0; i < 5; i += 1) {
      expect(scenarios.take(matching('getPet'))).toBe('not-found');
    }
    expect(take(scenarios, 'getPet')).toBe(notFound.rules[0]);
    expect(scenarios.active).toEqual({ name: 'not-found', remaining: null });
    scenarios.deactivate();
    expect(scenarios.active).toBeNull();
    expect(take(scenarios, 'getPet')).toBeUndefined();
  });

  it('gives no rule for an operation the scenario does not match', () => {
    const scenarios = new ScenarioSwitch(undefined);
    scenarios.activate('not-found');
    expect(scenarios.take(matching('listPets'))).toBeUndefined();
    expect(scenarios.take([])).toBeUndefined();
  });

  it('counts only matching operations against times', () => {
    const scenarios = new ScenarioSwitch(undefined);
    scenarios.activate('not-found', 2);
    expect(take(scenarios, 'listPets')).toBeUndefined();
    expect(take(scenarios, 'createPet')).toBeUndefined();
    expect(scenarios.active?.remaining).toBe(2);
    expect(take(scenarios, 'getPet')?.status).toBe(404);
    expect(scenarios.active?.remaining).toBe(1);
    expect(take(scenarios, 'listPets')).toBeUndefined();
    expect(take(scenarios, 'getPet')?.status).toBe(404);
    expect(scenarios.active).toBeNull();
    expect(take(scenarios, 'getPet')).toBeUndefined();
  });

  it('switches off after one request with times 1', () => {
    const scenarios = new ScenarioSwitch(undefined);
    scenarios.activate('unauthorized', 1);
    expect(take(scenarios, 'listPets')?.status).toBe(401);
    expect(take(scenarios, 'listPets')).toBeUndefined();
  });

  it('replaces the active scenario on a new activation', () => {
    const scenarios = new ScenarioSwitch(undefined);
    scenarios.activate('not-found', 3);
    scenarios.activate('unauthorized');
    expect(scenarios.active).toEqual({ name: 'unauthorized', remaining: null });
  });

  it('resets to the initial scenario, and to off without one', () => {
    const withInitial = new ScenarioSwitch('not-found');
    expect(withInitial.active?.name).toBe('not-found');
    withInitial.activate('unauthorized', 1);
    withInitial.reset();
    expect(withInitial.active).toEqual({ name: 'not-found', remaining: null });
    withInitial.deactivate();
    withInitial.reset();
    expect(withInitial.active?.name).toBe('not-found');

    const without = new ScenarioSwitch(undefined);
    without.activate('unauthorized');
    without.reset();
    expect(without.active).toBeNull();
  });
});

describe('SessionRegistry', () => {
  const initial = storeDataFrom([{ id: 1, name: 'Bella', categoryId: 3 }]);
  const options = { initial, journalSize: 5 };

  function registry(maxSessions: number): { sessions: SessionRegistry; created: string[] } {
    const factory = createSessionFactory(options);
    const created: string[] = [];
    const create = (id: string): Session => {
      created.push(id);
      return factory(id);
    };
    return { sessions: new SessionRegistry(factory('default'), create, maxSessions), created };
  }

  it('gives the default session for no id, and does not count it', () => {
    const { sessions, created } = registry(2);
    expect(sessions.get(undefined)).toBe(sessions.default);
    expect(sessions.size).toBe(0);
    expect(created).toEqual([]);
  });

  it('creates a named session on first use and returns the same one after', () => {
    const { sessions, created } = registry(2);
    const a = sessions.get('a');
    expect(a.id).toBe('a');
    expect(sessions.get('a')).toBe(a);
    expect(a).not.toBe(sessions.default);
    expect(created).toEqual(['a']);
    expect(sessions.size).toBe(1);
  });

  it('starts each session from the initial data with its own store', async () => {
    const { sessions } = registry(3);
    const a = sessions.get('a');
    await a.store.create({ name: 'Only in a', categoryId: 1 });
    expect(a.store.size).toBe(2);
    expect(sessions.get('b').store.size).toBe(1);
    expect(sessions.default.store.size).toBe(1);
  });

  it('drops the least recently created when nothing was reused: a, b, c drops a', () => {
    const { sessions } = registry(2);
    const a = sessions.get('a');
    sessions.get('b');
    sessions.get('c');
    expect(sessions.size).toBe(2);
    expect(sessions.has('a')).toBe(false);
    expect(sessions.has('b')).toBe(true);
    expect(sessions.has('c')).toBe(true);
    expect(sessions.get('a')).not.toBe(a);
  });

  it('drops the least recently used: a, b, a, c drops b', () => {
    const { sessions } = registry(2);
    const a = sessions.get('a');
    sessions.get('b');
    sessions.get('a');
    sessions.get('c');
    expect(sessions.has('b')).toBe(false);
    expect(sessions.has('a')).toBe(true);
    expect(sessions.get('a')).toBe(a);
  });

  it('has() does not refresh recency', () => {
    const { sessions } = registry(2);
    sessions.get('a');
    sessions.get('b');
    expect(sessions.has('a')).toBe(true);
    sessions.get('c');
    expect(sessions.has('a')).toBe(false);
  });

  it('never drops the default session', () => {
    const { sessions } = registry(1);
    const before = sessions.default;
    for (const id of ['a', 'b', 'c']) sessions.get(id);
    expect(sessions.get(undefined)).toBe(before);
    expect(sessions.size).toBe(1);
  });

  it.each(['', 'bad id!', 'x'.repeat(65), 'a/b', 'é', 'a b'])(
    'refuses the id %j as an invalid session',
    (id) => {
      const { sessions } = registry(2);
      let caught: unknown;
      try {
        sessions.get(id);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidSessionError);
      expect(caught instanceof Error ? caught.message : '').toMatch(/control plane/);
      expect(sessions.size).toBe(0);
    },
  );

  it.each(['w1', 'x'.repeat(64), 'worker_1.suite:a-b'])('accepts the id %j', (id) => {
    const { sessions } = registry(2);
    expect(sessions.get(id).id).toBe(id);
  });
});

describe('resetSession', () => {
  it('restores the initial pets, the start-up scenario and an empty journal', async () => {
    const initial = storeDataFrom([{ id: 1, name: 'Bella', categoryId: 3 }]);
    const session = createSessionFactory({
      initial,
      journalSize: 5,
      startupScenario: 'not-found',
    })('s');
    await session.store.create({ name: 'New', categoryId: 1 });
    session.scenarios.activate('unauthorized');
    session.journal.record(entry(1));
    await resetSession(session);
    expect(session.store.size).toBe(1);
    expect(session.store.get(2)).toBeUndefined();
    expect(session.scenarios.active).toEqual({ name: 'not-found', remaining: null });
    expect(session.journal.list(10)).toEqual([]);
  });
});

describe('LocalState', () => {
  const initial = storeDataFrom([{ id: 1, name: 'Bella', categoryId: 3 }]);

  function localState(maxSessions: number): LocalState {
    return new LocalState({
      kind: 'memory',
      defaultStore: createMemoryStore(initial),
      initial,
      settings: { journalSize: 5, maxSessions },
      startupScenario: 'not-found',
    });
  }

  /** The live named sessions, most recently used first. */
  async function liveIds(state: MockState): Promise<(string | null)[]> {
    return (await state.sessions()).map((s) => s.id).filter((id) => id !== null);
  }

  /** A finished listPets call as the recording step hands it over. */
  function call(session: string | undefined, authenticated: boolean, n: number): FinishedCall {
    const status = authenticated ? 200 : 401;
    return {
      session,
      authenticated,
      journal: { ...entry(n), status },
      coverage: {
        kind: 'operation',
        operationId: 'listPets',
        status,
        forced: false,
        brokeContract: false,
      },
    };
  }

  function count(tally: CoverageTally | undefined, status: number): number {
    return tally?.statusesOf('listPets').get(status)?.count ?? 0;
  }

  it('opens the default session without counting it, named ones on first use', async () => {
    const state = localState(2);
    await state.beginCall(undefined, undefined);
    expect(await state.sessions()).toEqual([
      { id: null, active: { name: 'not-found', remaining: null } },
    ]);
    await state.beginCall('a', undefined);
    await state.beginCall('a', undefined);
    expect(await liveIds(state)).toEqual(['a']);
  });

  it('starts each session from the initial data with its own pets', async () => {
    const state = localState(3);
    await state.createPet('a', { name: 'Only in a', categoryId: 1 });
    const names = async (session: string | undefined): Promise<string[]> =>
      (await state.listPets(session, { limit: 10 })).map((pet) => pet.name);
    expect(await names('a')).toEqual(['Bella', 'Only in a']);
    expect(await names('b')).toEqual(['Bella']);
    expect(await names(undefined)).toEqual(['Bella']);
    expect(await state.petCount()).toBe(1);
  });

  it('takes the switch only with the matching names, and leaves it alone without them', async () => {
    const state = localState(2);
    await state.activate('a', 'unauthorized', 2);
    expect(await state.beginCall('a', undefined)).toBeUndefined();
    expect(await state.beginCall('a', matching('getPet'))).toBe('unauthorized');
    expect(await state.active('a')).toEqual({ name: 'unauthorized', remaining: 1 });
    expect(await state.beginCall('a', ['not-found'])).toBeUndefined();
    expect(await state.beginCall('a', matching('listPets'))).toBe('unauthorized');
    expect(await state.active('a')).toBeNull();
    // The default session's start-up scenario is its own.
    expect(await state.beginCall(undefined, matching('getPet'))).toBe('not-found');
  });

  it('drops the least recently used: a, b, a, c drops b', async () => {
    const state = localState(2);
    for (const id of ['a', 'b', 'a', 'c']) await state.beginCall(id, undefined);
    expect(await liveIds(state)).toEqual(['c', 'a']);
  });

  it('reads neither create a session nor make one more recent', async () => {
    const state = localState(2);
    expect(await state.journal('x', 5)).toEqual([]);
    expect(await state.active('x')).toBeNull();
    expect(await state.coverage({ session: 'x' })).toBeUndefined();
    expect(await liveIds(state)).toEqual([]);

    await state.beginCall('a', undefined);
    await state.beginCall('b', undefined);
    await state.journal('a', 5);
    await state.active('a');
    await state.coverage({ session: 'a' });
    await state.sessions();
    await state.beginCall('c', undefined);
    expect(await liveIds(state)).toEqual(['c', 'b']);
  });

  it('records an unauthenticated call in the live session it names, else the default one, creating none', async () => {
    const state = localState(2);
    await state.beginCall('live', undefined);
    state.recordCall(call('live', false, 1));
    state.recordCall(call('not-live', false, 2));
    state.recordCall(call(undefined, false, 3));
    expect((await state.journal('live', 5)).map((e) => e.requestId)).toEqual(['r1']);
    expect((await state.journal(undefined, 5)).map((e) => e.requestId)).toEqual(['r3', 'r2']);
    expect(await liveIds(state)).toEqual(['live']);
    expect(count(await state.coverage({ session: 'live' }), 401)).toBe(1);
    expect(count(await state.coverage({ suite: true }), 401)).toBe(3);
  });

  it('records an authenticated call in its session, created if new', async () => {
    const state = localState(2);
    state.recordCall(call('w', true, 1));
    expect(await liveIds(state)).toEqual(['w']);
    expect((await state.journal('w', 5)).map((e) => e.requestId)).toEqual(['r1']);
    expect(await state.journal(undefined, 5)).toEqual([]);
    expect(count(await state.coverage({ session: 'w' }), 200)).toBe(1);
    expect(count(await state.coverage({ suite: true }), 200)).toBe(1);
  });

  it('keeps the answers of dropped sessions in the suite’s coverage; clears one or all', async () => {
    const state = localState(1);
    state.recordCall(call('a', true, 1));
    state.recordCall(call('b', true, 2));
    expect(await liveIds(state)).toEqual(['b']);
    expect(count(await state.coverage({ suite: true }), 200)).toBe(2);
    await state.clearCoverage('b');
    expect(count(await state.coverage({ session: 'b' }), 200)).toBe(0);
    expect(count(await state.coverage({ suite: true }), 200)).toBe(2);
    await state.clearCoverage(undefined);
    expect(count(await state.coverage({ suite: true }), 200)).toBe(0);
  });

  it('resets pets, switch and journal, and keeps coverage', async () => {
    const state = localState(2);
    await state.createPet('s', { name: 'New', categoryId: 1 });
    await state.activate('s', 'unauthorized');
    state.recordCall(call('s', true, 1));
    await state.reset('s');
    expect((await state.listPets('s', { limit: 10 })).map((pet) => pet.id)).toEqual([1]);
    expect(await state.active('s')).toEqual({ name: 'not-found', remaining: null });
    expect(await state.journal('s', 10)).toEqual([]);
    expect(count(await state.coverage({ session: 's' }), 200)).toBe(1);
  });

  it.each(['', 'bad id!', 'x'.repeat(65)])('refuses the id %j, creating nothing', async (id) => {
    const state = localState(2);
    // Through an async function: a backend may throw at once or reject.
    const refused = async (run: () => Promise<unknown>): Promise<void> => {
      await expect((async () => run())()).rejects.toBeInstanceOf(InvalidSessionError);
    };
    await refused(() => state.beginCall(id, undefined));
    await refused(() => state.activate(id, 'unauthorized'));
    await refused(() => state.journal(id, 5));
    expect(await liveIds(state)).toEqual([]);
  });
});
