const { connectMock } = require('petstore-mock/workers');

const mock = connectMock(); // this worker's session: X-Mock-Session jest-<JEST_WORKER_ID>
const headers = { Authorization: 'Bearer t', ...mock.headers }; // give your API client these
beforeEach(() => mock.reset()); // this session only: other workers keep their data

test('a created pet is listed', async () => {
  const created = await fetch(`${mock.url}/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  const pets = await (await fetch(`${mock.url}/pets?limit=100`, { headers })).json();
  expect(pets.map((pet) => pet.name)).toContain('Rex');
});

test('a scenario applies to this worker only', async () => {
  await mock.useScenario('empty-catalogue', { times: 1 });
  const res = await fetch(`${mock.url}/pets`, { headers });
  expect(await res.json()).toEqual([]);
});
