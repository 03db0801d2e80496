/**
 * Bring your own contract, 5: examples that break their own schema. The mock answers generated
 * data in their place (and says so), warns once per operation, and lists them in the coverage
 * report; with brokenExamples 'serve' it answers them as written and journals the breach.
 */
import request from 'supertest';
import { asJournal } from '../helpers/scenario-http.js';
import {
  errors,
  list,
  loadOwn,
  NO_RESOURCES,
  ownApp,
  record,
  warnings,
} from '../helpers/own-contract.js';
import type { TestAppOptions } from '../helpers/test-app.js';

const gadgets = loadOwn('broken-examples', 'gadgets.yaml');

/** An app over gadgets.yaml that answers from the contract: its gadgets are no resource here. */
async function gadgetsApp(options: TestAppOptions = {}) {
  return ownApp(gadgets, { resources: NO_RESOURCES, ...options });
}

/** The warnings that name an operation's broken example. */
function brokenWarnings(logs: readonly Record<string, unknown>[], operation: string) {
  return warnings(logs).filter((line) => line.operation === operation);
}

describe('an example that breaks its schema, by default', () => {
  it('is replaced by generated data that keeps to the schema, and says so', async () => {
    const { app, logs } = await gadgetsApp();
    const res = await request(app).get('/gadgets/gadgets/7').expect(200);
    expect(res.headers['x-mock-answer']).toBe('generated; example-breaks-schema');
    expect(gadgets.checkSchema('Gadget')(res.body)).toEqual([]);
    expect(record(res.body).price ?? 0).toBeGreaterThanOrEqual(0);
    expect(errors(logs)).toEqual([]);
  });

  it('a named example of `examples` as well', async () => {
    const { app } = await gadgetsApp();
    const res = await request(app).get('/gadgets/gadgets').expect(200);
    expect(res.headers['x-mock-answer']).toBe('generated; example-breaks-schema');
    for (const gadget of list(res.body)) expect(typeof record(gadget).id).toBe('number');
  });

  it('is warned of once per operation, naming the breach', async () => {
    const { app, logs } = await gadgetsApp();
    await request(app).get('/gadgets/gadgets/1').expect(200);
    await request(app).get('/gadgets/gadgets/2').expect(200);
    await request(app).get('/gadgets/gadgets').expect(200);
    await request(app).get('/gadgets/gadgets').expect(200);
    const [one, ...more] = brokenWarnings(logs, 'getGadget');
    expect(more).toEqual([]);
    expect(String(record(one).problem)).toContain('price');
    expect(brokenWarnings(logs, 'GET /gadgets')).toHaveLength(1);
  });

  it('leaves an example that keeps to its schema alone', async () => {
    const { app, logs } = await gadgetsApp();
    const res = await request(app).get('/gadgets/gadgets/7/manual').expect(200);
    expect(res.headers['x-mock-answer']).toBe('example');
    expect(res.body).toEqual({ pages: 12 });
    expect(warnings(logs)).toEqual([]);
  });
});

describe('the coverage report lists them', () => {
  it('as JSON: operation, status, media type, the example named, the first breach', async () => {
    const { app } = await gadgetsApp();
    // Before any request: the report looks at every example of the contract.
    const res = await request(app).get('/__admin/coverage').expect(200);
    const broken = list(record(res.body).brokenExamples);
    expect(broken).toHaveLength(2);
    expect(broken).toEqual(
      expect.arrayContaining([
        {
          operation: 'getGadget',
          status: 200,
          mediaType: 'application/json',
          problem: expect.stringContaining('price') as unknown,
        },
        {
          operation: 'GET /gadgets',
          status: 200,
          mediaType: 'application/json',
          example: 'legacy',
          problem: expect.stringContaining('id') as unknown,
        },
      ]),
    );
  });

  it('as Markdown: a table of them', async () => {
    const { app } = await gadgetsApp();
    const res = await request(app).get('/__admin/coverage?format=markdown').expect(200);
    const lines = res.text.split('\n');
    const header = lines.findIndex((line) => /^\| operation \| status \| media type \|/.test(line));
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 2).filter((line) => line.startsWith('|'));
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\| getGadget \| 200 \| application\/json \| +\| .*price.* \|$/),
        expect.stringMatching(
          /^\| GET \/gadgets \| 200 \| application\/json \| legacy \| .*id.* \|$/,
        ),
      ]),
    );
  });

  it('a contract whose examples all keep to their schemas has none', async () => {
    const { app } = await ownApp(loadOwn('answers', 'answers.yaml'));
    const res = await request(app).get('/__admin/coverage').expect(200);
    expect(record(res.body).brokenExamples).toEqual([]);
  });
});

describe("with brokenExamples: 'serve'", () => {
  it('the example is answered as written, and says so', async () => {
    const { app, logs } = await gadgetsApp({ brokenExamples: 'serve' });
    const res = await request(app).get('/gadgets/gadgets/7').expect(200);
    expect(res.headers['x-mock-answer']).toBe('example; breaks-schema');
    expect(res.body).toEqual({ id: 7, name: 'Sprocket', price: -3 });
    // No 500: the breach is the contract's, known and asked for.
    expect(errors(logs)).toEqual([]);
  });

  it("the breach is journaled in the request's validationErrors", async () => {
    const { app } = await gadgetsApp({ brokenExamples: 'serve' });
    await request(app).get('/gadgets/gadgets/7').expect(200);
    await request(app).get('/gadgets/gadgets/7/manual').expect(200);
    const [manual, gadget] = asJournal((await request(app).get('/__admin/requests')).body);
    expect(gadget?.operationId).toBe('getGadget');
    expect(gadget?.status).toBe(200);
    expect(gadget?.validationErrors.join(' ')).toContain('price');
    expect(manual?.validationErrors).toEqual([]);
  });

  it('a named example as written too', async () => {
    const { app } = await gadgetsApp({ brokenExamples: 'serve' });
    const res = await request(app).get('/gadgets/gadgets').expect(200);
    expect(res.headers['x-mock-answer']).toBe('example; breaks-schema');
    expect(res.body).toEqual([{ id: 'G-1', name: 'Widget' }]);
  });

  it('by default, nothing of it is journaled', async () => {
    const { app } = await gadgetsApp();
    await request(app).get('/gadgets/gadgets/7').expect(200);
    const [entry] = asJournal((await request(app).get('/__admin/requests')).body);
    expect(entry?.validationErrors).toEqual([]);
  });
});

describe('two apps over one contract share its validator, each hearing its own answers', () => {
  it('serves each broken example in its own app, journaled there only, however requests interleave', async () => {
    // Both apps hear breaches through the one validator built for the contract
    // (http/contract-validator.ts): each request must reach its own app's listener.
    const first = await gadgetsApp({ brokenExamples: 'serve' });
    const second = await gadgetsApp({ brokenExamples: 'serve' });
    // The first app's answers wait (the built-in slow scenario) while the second's pass through
    // the validator: each answer is judged after the other app's requests have reached it.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? request(first.app)
              .get(`/gadgets/gadgets/${String(i + 1)}`)
              .set('X-Mock-Scenario', 'slow')
          : request(second.app).get(`/gadgets/gadgets/${String(i + 1)}`),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 10 }, () => 200));
    for (const { app } of [first, second]) {
      const journal = asJournal((await request(app).get('/__admin/requests')).body);
      expect(journal).toHaveLength(5);
      for (const entry of journal) expect(entry.validationErrors.join(' ')).toContain('price');
    }
    expect([...errors(first.logs), ...errors(second.logs)]).toEqual([]);
  });
});
