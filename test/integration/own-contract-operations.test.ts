/**
 * Bring your own contract, 6: operations without an operationId. The journal, coverage,
 * scenarios and Prefer all name one as `METHOD /path/{template}`; a path matches its most
 * specific template (`/items/mine` before `/items/{id}`), whatever order the document writes them.
 * The app keeps no resources: every operation is answered from the contract's examples.
 */
import request from 'supertest';
import { loadScenarios } from '../../src/contract/load-scenarios.js';
import { coverageOf } from '../helpers/coverage-http.js';
import { loadOwn, NO_RESOURCES, ownApp, ownPath } from '../helpers/own-contract.js';
import { activate, asJournal, asScenarioListing, expectError } from '../helpers/scenario-http.js';

const inventory = loadOwn('operations', 'inventory.yaml');
const ownScenarios = loadScenarios(ownPath('operations', 'scenarios'), inventory);

async function app() {
  return (await ownApp(inventory, { scenarios: ownScenarios, resources: NO_RESOURCES })).app;
}

async function journalOf(client: Awaited<ReturnType<typeof app>>) {
  return asJournal((await request(client).get('/__admin/requests').expect(200)).body);
}

describe('path matching', () => {
  it('a written-out path before a template, though the document writes it after', async () => {
    const client = await app();
    const mine = await request(client).get('/stock/items/mine').expect(200);
    expect(mine.body).toEqual([{ id: '7', name: 'Mug' }]);
    const one = await request(client).get('/stock/items/41').expect(200);
    expect(one.body).toEqual({ id: '41', name: 'Lamp' });
  });
});

describe('the journal', () => {
  it('names each operation by its method and path template, or its operationId', async () => {
    const client = await app();
    await request(client).get('/stock/items/41').expect(200);
    await request(client).get('/stock/items/mine').expect(200);
    await request(client).delete('/stock/items/41').expect(204);
    await request(client).post('/stock/items').send({ id: '9', name: 'Cup' }).expect(201);
    const names = (await journalOf(client)).map((entry) => entry.operationId);
    expect(names).toEqual(['addItem', 'DELETE /items/{id}', 'GET /items/mine', 'GET /items/{id}']);
  });
});

describe('coverage', () => {
  it('reports each operation under that name, with its documented statuses', async () => {
    const client = await app();
    await request(client).get('/stock/items/41').expect(200);
    const report = await coverageOf(client);
    expect(report.operations.map((op) => op.operationId)).toEqual([
      'GET /items/{id}',
      'DELETE /items/{id}',
      'GET /items/mine',
      'addItem',
    ]);
    const get = report.operations.find((op) => op.operationId === 'GET /items/{id}');
    expect(get).toMatchObject({ method: 'GET', path: '/items/{id}' });
    expect(get?.statuses['200']).toMatchObject({ documented: true, count: 1 });
    expect(get?.statuses['404']).toMatchObject({ documented: true, count: 0 });
  });
});

describe('scenarios', () => {
  it('a rule may name `GET /items/{id}` or an operationId', async () => {
    const client = await app();
    const header = { 'X-Mock-Scenario': 'item-gone' };
    const gone = await request(client).get('/stock/items/41').set(header);
    expect(expectError(gone, 404, 'not_found').message).toBe('That item was sold.');
    expectError(await request(client).delete('/stock/items/41').set(header), 404, 'not_found');
    const added = await request(client)
      .post('/stock/items')
      .set(header)
      .send({ id: '9', name: 'Cup' });
    expectError(added, 400, 'bad_request');
    // The written-out path is another operation, which the scenario leaves alone.
    await request(client).get('/stock/items/mine').set(header).expect(200);
  });

  it('the admin API lists the operations a scenario applies to by those names', async () => {
    const listing = asScenarioListing(
      (
        await request(await app())
          .get('/__admin/scenarios')
          .expect(200)
      ).body,
    );
    const gone = listing.scenarios.find((scenario) => scenario.name === 'item-gone');
    expect(gone?.operations).toEqual(['GET /items/{id}', 'DELETE /items/{id}', 'addItem']);
  });

  it('a switched scenario counts off only the operations it names', async () => {
    const client = await app();
    await activate(client, 'item-gone', { times: 1 });
    await request(client).get('/stock/items/mine').expect(200);
    expectError(await request(client).get('/stock/items/41'), 404, 'not_found');
    await request(client).get('/stock/items/41').expect(200);
  });

  it('the journal says which scenario forced the answer', async () => {
    const client = await app();
    await request(client).get('/stock/items/41').set('X-Mock-Scenario', 'item-gone').expect(404);
    const [entry] = await journalOf(client);
    expect(entry).toMatchObject({
      operationId: 'GET /items/{id}',
      status: 404,
      scenario: 'scenario item-gone',
    });
  });
});

describe('Prefer: code=…', () => {
  it('forces a documented status of an operation without an operationId', async () => {
    const client = await app();
    const res = await request(client).delete('/stock/items/41').set('Prefer', 'code=404');
    expectError(res, 404, 'not_found');
    const [entry] = await journalOf(client);
    expect(entry).toMatchObject({
      operationId: 'DELETE /items/{id}',
      scenario: 'Prefer: code=404',
    });
  });

  it('refuses an undocumented one, naming the operation by method and path', async () => {
    const res = await request(await app())
      .get('/stock/items/41')
      .set('Prefer', 'code=500');
    const { message } = expectError(res, 422, 'not_in_contract');
    expect(message).toContain('GET /items/{id}');
  });
});
