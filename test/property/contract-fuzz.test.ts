import fc from 'fast-check';
import request from 'supertest';
import type { Pet } from '../../src/state/pet.js';
import { AUTH, contract, createTestApp } from '../helpers/test-app.js';
import { isNode, readContractModel, schemaOf } from './contract-model.js';
import { FuzzWorld, parseExact, prototypeSnapshot, type FuzzStats } from './fuzz-world.js';
import { requestPlan, type Knobs } from './request-arbitraries.js';
import { bodyText, exactValue, objectBody } from './value-arbitraries.js';

/**
 * Property-based contract fuzzing: requests generated from openapi.yaml (valid and mutated) are
 * sent to one app per property. For every response: no 5xx; a 4xx is exactly {code, message,
 * status} with status = HTTP status and a bounded message; a 2xx validates (with the test's own
 * Ajv) against the schema the document gives for it; the stores grow by exactly the 201s; no
 * built-in prototype changes. Where the contract settles the answer, the status is predicted too.
 * Seeds are fixed so CI runs are reproducible.
 */

const PROPERTY_TIMEOUT = 60_000;
const model = readContractModel(contract.document);

/** The test's own pets: every status, one without, and int64 values beyond 2^53. */
const PETS: readonly Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
  { id: 3, name: 'Kit', categoryId: 3, status: 'sold' },
  { id: 4, name: 'Nameless status', categoryId: -4 },
  { id: 5, name: '\u202eevil\u200b', categoryId: 9223372036854775807n, status: 'available' },
  { id: 9007199254740993n, name: 'Big', categoryId: -9223372036854775808n, status: 'sold' },
];
const SESSION_IDS = ['fuzz-a', 'fuzz-b'];

const report: string[] = [];

function record(name: string, runs: number, stats: FuzzStats): void {
  const statuses = [...stats.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  report.push(
    `${name}: ${runs} cases, ${stats.requests} requests, ${stats.serverErrors} 5xx [${statuses}]`,
  );
  for (const [note, count] of stats.notes) report.push(`  note: ${note} (×${count})`);
}

interface FuzzOptions {
  readonly seed: number;
  readonly numRuns: number;
  /**
   * The statuses this family is meant to test, each of which its requests must get at least once:
   * a generator that stops producing, say, a non-JSON Accept then fails here instead of
   * silently testing less.
   */
  readonly reaches: readonly number[];
  /** Requests per case: more than one lets earlier requests change what later ones see. */
  readonly maxLength?: number;
}

async function fuzz(name: string, knobs: Knobs, options: FuzzOptions): Promise<void> {
  const world = await FuzzWorld.open(PETS, knobs.sessions ? SESSION_IDS : []);
  const plans = fc.array(requestPlan(world.env, knobs), {
    minLength: 1,
    maxLength: options.maxLength ?? 1,
  });
  let runs = 0;
  try {
    await fc.assert(
      fc.asyncProperty(plans, async (sequence) => {
        runs += 1;
        for (const plan of sequence) await world.run(plan);
      }),
      { seed: options.seed, numRuns: options.numRuns },
    );
  } finally {
    record(name, runs, world.stats);
    await world.close();
  }
  const missed = options.reaches.filter((status) => !world.stats.byStatus.has(status));
  expect({ family: name, missed }).toEqual({ family: name, missed: [] });
}

describe('contract fuzz: requests generated from openapi.yaml', () => {
  const prototypesBefore = prototypeSnapshot();

  afterAll(() => {
    console.log(`contract fuzz\n${report.join('\n')}`);
  });

  it(
    'createPet bodies: valid, wrong types, missing and extra fields, int64 edges, odd unicode, huge, malformed, deep',
    async () => {
      await fuzz(
        'createPet bodies',
        { operations: ['createPet'] },
        // Valid; wrong, missing, malformed or deep; huge.
        { seed: 6001, numRuns: 500, reaches: [201, 400, 413] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'listPets queries: limit edges, enum values, duplicates, __proto__ keys, malformed percent',
    async () => {
      await fuzz(
        'listPets queries',
        { operations: ['listPets'] },
        { seed: 6002, numRuns: 400, reaches: [200, 400] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'getPet ids: existing, absent, int64 edges and 2^53±1, out of range, garbage, malformed percent',
    async () => {
      await fuzz(
        'getPet ids',
        { operations: ['getPet'] },
        // Existing; garbage or out of range; absent.
        { seed: 6003, numRuns: 400, reaches: [200, 400, 404] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'every auth variant on every path and method',
    async () => {
      await fuzz(
        'auth, paths, methods',
        { anyMethod: true, rawPaths: true, authVariants: true },
        // Accepted on each operation, invalid values; refused auth; other paths; other methods.
        { seed: 6004, numRuns: 500, reaches: [200, 201, 400, 401, 404, 405] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'content types, content encodings and Accept on createPet',
    async () => {
      await fuzz(
        'media types',
        { operations: ['createPet'], mediaVariants: true },
        // Accepted; other types and encodings; Accept without JSON; too large.
        { seed: 6005, numRuns: 300, reaches: [201, 400, 406, 413] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'mixed sequences with sessions, Prefer and X-Mock-Scenario',
    async () => {
      await fuzz(
        'mixed sequences',
        {
          anyMethod: true,
          rawPaths: true,
          authVariants: true,
          mediaVariants: true,
          sessions: true,
          control: true,
        },
        // All of the above, with invalid sessions and refused Prefer or X-Mock-Scenario (422).
        {
          seed: 6006,
          numRuns: 150,
          maxLength: 4,
          reaches: [200, 201, 400, 401, 404, 405, 406, 422],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'round-trips any valid NewPet, int64 digits exact: the GET text is the 201 text',
    async () => {
      const create = model.operations.find((op) => op.requestBody && op.successStatus === 201);
      const read = model.operations.find((op) => op.method === 'GET' && op.template.includes('{'));
      if (!create?.requestBody || !read) throw new Error('the contract has no create and get');
      const schema = create.requestBody.schema;
      const int64Fields = Object.entries(isNode(schema.properties) ? schema.properties : {})
        .filter(([, property]) => schemaOf(model.document, property).format === 'int64')
        .map(([name]) => name);
      const { app, state } = await createTestApp({ pets: [] });
      let runs = 0;
      let created = 0;
      try {
        await fc.assert(
          fc.asyncProperty(objectBody(model, schema, true), async (body) => {
            runs += 1;
            const res = await request(app)
              .post(create.template)
              .set(AUTH)
              .set('Content-Type', 'application/json')
              .send(bodyText(body));
            expect(res.status).toBe(201);
            created += 1;
            for (const name of int64Fields) {
              const sent = body.exact?.[name];
              if (sent !== undefined) expect(res.text).toContain(`"${name}":${exactValue(sent)}`);
            }
            const pet = parseExact(res.text);
            if (!isNode(pet) || typeof pet.id !== 'bigint') throw new Error(`no id: ${res.text}`);
            for (const [name, sent] of Object.entries(body.exact ?? {})) {
              expect(pet[name]).toBe(exactValue(sent));
            }
            const path = read.template.replace(/\{[^}]+\}/, String(pet.id));
            const got = await request(app).get(path).set(AUTH);
            expect(got.status).toBe(200);
            expect(got.text).toBe(res.text);
          }),
          { seed: 6007, numRuns: 300 },
        );
      } finally {
        report.push(`round-trip: ${runs} cases, ${created} created`);
      }
      expect(await state.petCount()).toBe(created);
    },
    PROPERTY_TIMEOUT,
  );

  it('left every built-in prototype as it was', () => {
    expect(prototypeSnapshot()).toBe(prototypesBefore);
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
  });
});
