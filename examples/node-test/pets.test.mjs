import assert from 'node:assert/strict';
import { after, beforeEach, test } from 'node:test';
import { startMockServer } from 'petstore-mock';

const auth = { Authorization: 'Bearer t' };
const mock = await startMockServer({ seed: 42, count: 50 }); // mock.url: http://127.0.0.1:<port>/v1
after(() => mock.close());
beforeEach(() => mock.reset()); // data, scenario and journal back to the start

test('lists the generated pets', async () => {
  const res = await fetch(`${mock.url}/pets?limit=100`, { headers: auth });
  assert.equal((await res.json()).length, 50);
});

test('shows an empty catalogue', async () => {
  await mock.useScenario('empty-catalogue', { times: 1 }); // or { session: 'worker-1' }
  const res = await fetch(`${mock.url}/pets`, { headers: auth });
  assert.deepEqual(await res.json(), []);
});
