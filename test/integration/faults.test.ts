import request from 'supertest';
import type { Scenario } from '../../src/contract/scenario.js';
import {
  activate,
  asJournal,
  asPets,
  getOverSocket,
  type SocketOutcome,
} from '../helpers/scenario-http.js';
import { AUTH, createTestApp, fixturePets, shippedScenarios } from '../helpers/test-app.js';

const KNOWN_ID = fixturePets[0]?.id ?? 1;

function expectSocketError(outcome: SocketOutcome, pattern: RegExp): void {
  if (outcome.kind !== 'error') {
    throw new Error(`expected a socket error, got HTTP ${outcome.status}: ${outcome.body}`);
  }
  expect(outcome.sawResponse).toBe(false);
  expect(`${outcome.error.code ?? ''} ${outcome.error.message}`).toMatch(pattern);
}

describe('network faults: the client sees a socket error, not a response', () => {
  it.each(['/v1/pets', `/v1/pets/${KNOWN_ID}`])(
    'connection-reset via X-Mock-Scenario on %s: ECONNRESET',
    async (path) => {
      const { app } = await createTestApp();
      const outcome = await getOverSocket(app, path, {
        ...AUTH,
        'X-Mock-Scenario': 'connection-reset',
      });
      expectSocketError(outcome, /ECONNRESET/);
    },
  );

  it.each(['/v1/pets', `/v1/pets/${KNOWN_ID}`])(
    'connection-closed via X-Mock-Scenario on %s: socket hang up',
    async (path) => {
      const { app } = await createTestApp();
      const outcome = await getOverSocket(app, path, {
        ...AUTH,
        'X-Mock-Scenario': 'connection-closed',
      });
      expectSocketError(outcome, /socket hang up|ECONNRESET/);
    },
  );

  it('connection-reset switched on globally: ECONNRESET until switched off', async () => {
    const { app } = await createTestApp();
    await activate(app, 'connection-reset');
    expectSocketError(await getOverSocket(app, '/v1/pets', { ...AUTH }), /ECONNRESET/);
    await request(app).delete('/__admin/scenario').expect(204);
    const after = await getOverSocket(app, '/v1/pets?limit=2', { ...AUTH });
    expect(after.kind).toBe('response');
    if (after.kind === 'response') {
      expect(after.status).toBe(200);
      expect(asPets(JSON.parse(after.body))).toEqual(fixturePets.slice(0, 2));
    }
  });

  it('connection-closed switched on globally with times 1: one fault, then answers', async () => {
    const { app } = await createTestApp();
    await activate(app, 'connection-closed', { times: 1 });
    expectSocketError(
      await getOverSocket(app, `/v1/pets/${KNOWN_ID}`, { ...AUTH }),
      /socket hang up|ECONNRESET/,
    );
    const after = await getOverSocket(app, `/v1/pets/${KNOWN_ID}`, { ...AUTH });
    expect(after.kind === 'response' ? after.status : after.error.message).toBe(200);
  });

  it('a fault still comes after auth: no credentials is a 401 response', async () => {
    const { app } = await createTestApp();
    const outcome = await getOverSocket(app, '/v1/pets', { 'X-Mock-Scenario': 'connection-reset' });
    expect(outcome.kind === 'response' ? outcome.status : outcome.error.message).toBe(401);
  });

  it('a delayed fault still drops the connection, after the delay', async () => {
    const delayMs = 200;
    const slowReset: Scenario = {
      name: 'slow-reset',
      description: '',
      source: 'test',
      rules: [{ operations: 'all', delay: { fixed: delayMs }, fault: 'reset' }],
    };
    const { app } = await createTestApp({ scenarios: new Map([['slow-reset', slowReset]]) });
    const started = performance.now();
    const outcome = await getOverSocket(app, '/v1/pets', {
      ...AUTH,
      'X-Mock-Scenario': 'slow-reset',
    });
    // The delay's timer starts after `started` and fires no sooner than asked, in whole (possibly
    // coarse) milliseconds of the same monotonic clock: a lower bound that holds under any load,
    // where a fault sent without its delay comes within a few milliseconds.
    expect(performance.now() - started).toBeGreaterThanOrEqual(delayMs - 2);
    expectSocketError(outcome, /ECONNRESET/);
  });

  it.each(['connection-reset', 'connection-closed'])(
    'a request faulted by %s is journaled with status null',
    async (name) => {
      const { app } = await createTestApp();
      const outcome = await getOverSocket(app, '/v1/pets', { ...AUTH, 'X-Mock-Scenario': name });
      expect(outcome.kind).toBe('error');
      // The journal entry is written when the server sees the connection close.
      let entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
      for (let i = 0; i < 20 && entries.length === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        entries = asJournal((await request(app).get('/__admin/requests').expect(200)).body);
      }
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        method: 'GET',
        path: '/v1/pets',
        operationId: 'listPets',
        status: null,
        scenario: `scenario ${name}`,
      });
    },
  );

  it('a fault on createPet creates nothing', async () => {
    const { app, state } = await createTestApp();
    const before = await state.petCount();
    await activate(app, 'connection-reset');
    const outcome = await getOverSocket(
      app,
      '/v1/pets',
      { ...AUTH },
      { name: 'Ghost', categoryId: 1 },
    );
    expectSocketError(outcome, /ECONNRESET/);
    expect(await state.petCount()).toBe(before);
  });
});

describe('the shipped fault and delay scenarios', () => {
  it('timeout is a 30000 ms fixed delay on all operations (loaded, not run)', () => {
    expect(shippedScenarios.get('timeout')?.rules).toEqual([
      { operations: 'all', delay: { fixed: 30000 } },
    ]);
  });

  it('connection-reset and connection-closed match all operations', () => {
    expect(shippedScenarios.get('connection-reset')?.rules).toEqual([
      { operations: 'all', fault: 'reset' },
    ]);
    expect(shippedScenarios.get('connection-closed')?.rules).toEqual([
      { operations: 'all', fault: 'close' },
    ]);
  });
});
