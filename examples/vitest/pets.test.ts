import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startMockServer, type MockServer } from 'petstore-mock';

const auth = { Authorization: 'Bearer t' };
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 42, count: 50 }); // mock.url: http://127.0.0.1:<port>/v1
});
afterAll(() => mock.close());
beforeEach(() => mock.reset()); // data, scenario and journal back to the start

test('lists the generated pets', async () => {
  const res = await fetch(`${mock.url}/pets?limit=100`, { headers: auth });
  expect(await res.json()).toHaveLength(50);
});

test('shows an empty catalogue', async () => {
  await mock.useScenario('empty-catalogue', { times: 1 }); // or { session: 'worker-1' }
  const res = await fetch(`${mock.url}/pets`, { headers: auth });
  expect(await res.json()).toEqual([]);
});
