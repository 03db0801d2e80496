import type { Express } from 'express';
import request from 'supertest';
import { readCoverageReport } from '../../src/cli/read-coverage-report.js';
import { countsOf, coverageOf } from '../helpers/coverage-http.js';
import { somePets } from '../helpers/http-matrix.js';
import {
  activate,
  expectError,
  getOverSocket,
  petHeaders,
  sessionHeader,
} from '../helpers/scenario-http.js';
import { AUTH, createTestApp, isLive } from '../helpers/test-app.js';

/** The sequence of the issue: every kind of answer once, then a reset. */
async function exerciseOnce(app: Express): Promise<void> {
  await request(app).get('/v1/pets').set(AUTH).expect(200);
  await request(app).get('/v1/pets').expect(401);
  await request(app).post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 }).expect(201);
  await request(app).post('/v1/pets').set(AUTH).expect(400);
  await request(app).get('/v1/pets/999999').set(AUTH).expect(404);
  await request(app).get('/v1/pets/1').set(AUTH).set('Prefer', 'code=401').expect(401);
  await request(app).get('/v1/nope').set(AUTH).expect(404);
  await request(app).get('/v1/pets?limit=0').set(AUTH).expect(400);
  await request(app).post('/__admin/reset').expect(204);
}

describe('GET /__admin/coverage: what the pet API answered, against the contract', () => {
  it('reports the issue’s sequence exactly: 6 of 8 documented answers, kept across a reset', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await exerciseOnce(app);
    const res = await request(app).get('/__admin/coverage').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const no = { documented: false };
    const yes = { documented: true };
    expect(res.body).toEqual({
      summary: { documented: 8, covered: 6, percent: 75, violations: 0 },
      operations: [
        {
          operationId: 'listPets',
          method: 'GET',
          path: '/pets',
          statuses: {
            '200': { ...yes, count: 1, forced: 0, violations: 0 },
            '400': { ...no, count: 1, forced: 0, violations: 0 },
            '401': { ...yes, count: 1, forced: 0, violations: 0 },
          },
          noAnswer: 0,
        },
        {
          operationId: 'createPet',
          method: 'POST',
          path: '/pets',
          statuses: {
            '201': { ...yes, count: 1, forced: 0, violations: 0 },
            '400': { ...yes, count: 1, forced: 0, violations: 0 },
            '401': { ...yes, count: 0, forced: 0, violations: 0 },
          },
          noAnswer: 0,
        },
        {
          operationId: 'getPet',
          method: 'GET',
          path: '/pets/{petId}',
          statuses: {
            '200': { ...yes, count: 0, forced: 0, violations: 0 },
            '401': { ...yes, count: 1, forced: 1, violations: 0 },
            '404': { ...yes, count: 1, forced: 0, violations: 0 },
          },
          noAnswer: 0,
        },
      ],
      unmatched: [{ method: 'GET', path: '/v1/nope', count: 1 }],
      brokenExamples: [],
    });
  });

  it('DELETE /__admin/coverage clears it: 204, then every count is 0', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await exerciseOnce(app);
    const res = await request(app).delete('/__admin/coverage').expect(204);
    expect(res.text).toBe('');
    const report = await coverageOf(app);
    expect(report.summary).toEqual({ documented: 8, covered: 0, percent: 0, violations: 0 });
    expect(
      report.operations.flatMap((op) => Object.values(op.statuses).map((s) => s.count)),
    ).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(report.unmatched).toEqual([]);
  });

  it('counts what matched no operation by method and path: unknown paths, wrong methods', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/nope?x=1').set(AUTH).expect(404);
    await request(app).get('/v1/nope').set(AUTH).expect(404);
    await request(app).delete('/v1/pets').set(AUTH).expect(405);
    // Outside the pet API's base path: not the pet API, not counted.
    await request(app).get('/elsewhere').set(AUTH).expect(404);
    expect((await coverageOf(app)).unmatched).toEqual([
      { method: 'GET', path: '/v1/nope', count: 2 },
      { method: 'DELETE', path: '/v1/pets', count: 1 },
    ]);
  });

  it('lists statuses the contract does not document once answered (406, 422), HEAD under GET', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/pets').set(AUTH).accept('text/html').expect(406);
    await request(app).get('/v1/pets').set(AUTH).set('Prefer', 'code=404').expect(422);
    await request(app).head('/v1/pets/1').set(AUTH).expect(200);
    const report = await coverageOf(app);
    expect(countsOf(report, 'listPets')).toEqual({
      '200': [0, 0],
      '401': [0, 0],
      '406': [1, 0],
      '422': [1, 0],
    });
    expect(countsOf(report, 'getPet')['200']).toEqual([1, 0]);
    expect(report.summary.covered).toBe(1);
  });

  it('keeps paths that matched nothing short (120 characters and an ellipsis)', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app)
      .get(`/v1/${'x'.repeat(5000)}`)
      .set(AUTH)
      .expect(404);
    const [entry] = (await coverageOf(app)).unmatched;
    expect(entry?.path).toHaveLength(121);
    expect(entry?.path.endsWith('…')).toBe(true);
  });
});

describe('coverage of forced answers', () => {
  it('counts Prefer, X-Mock-Scenario and an active scenario as forced, and as covered', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Prefer', 'code=401')
      .send({ name: 'Rex', categoryId: 1 })
      .expect(401);
    await request(app).get('/v1/pets/1').set(AUTH).set('X-Mock-Scenario', 'not-found').expect(404);
    await activate(app, 'empty-catalogue', { times: 1 });
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    await request(app).get('/v1/pets').set(AUTH).expect(200);
    const report = await coverageOf(app);
    expect(countsOf(report, 'createPet')['401']).toEqual([1, 1]);
    expect(countsOf(report, 'getPet')['404']).toEqual([1, 1]);
    expect(countsOf(report, 'listPets')['200']).toEqual([2, 1]);
    expect(report.summary.covered).toBe(3);
  });

  it('counts a network fault as no answer: it covers no status', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const outcome = await getOverSocket(app, '/v1/pets', {
      ...AUTH,
      'X-Mock-Scenario': 'connection-reset',
    });
    expect(outcome.kind).toBe('error');
    // The server records once the socket has closed on its side too.
    let report = await coverageOf(app);
    for (let i = 0; i < 50 && report.operations[0]?.noAnswer === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      report = await coverageOf(app);
    }
    expect(report.operations[0]).toMatchObject({ operationId: 'listPets', noAnswer: 1 });
    expect(countsOf(report, 'listPets')).toEqual({ '200': [0, 0], '401': [0, 0] });
  });
});

describe('coverage per session, and for the whole suite', () => {
  it('reports one session with X-Mock-Session, every session together without', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get('/v1/pets/1').set(petHeaders('w2')).expect(200);
    await request(app).get('/v1/pets/99').set(AUTH).expect(404);
    expect((await coverageOf(app, 'w1')).summary.covered).toBe(1);
    expect(countsOf(await coverageOf(app, 'w1'), 'listPets')['200']).toEqual([1, 0]);
    expect(countsOf(await coverageOf(app, 'w2'), 'getPet')['200']).toEqual([1, 0]);
    expect((await coverageOf(app)).summary.covered).toBe(3);
  });

  it('counts a 401 for the live session it names, else only for the suite (as the journal does)', async () => {
    const { app, state } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get('/v1/pets').set('X-Mock-Session', 'w1').expect(401);
    await request(app).get('/v1/pets').set('X-Mock-Session', 'never-used').expect(401);
    expect(countsOf(await coverageOf(app, 'w1'), 'listPets')['401']).toEqual([1, 0]);
    expect(countsOf(await coverageOf(app), 'listPets')['401']).toEqual([2, 0]);
    // A report never creates the session it is asked about.
    expect((await coverageOf(app, 'never-used')).summary.covered).toBe(0);
    expect(await isLive(state, 'never-used')).toBe(false);
  });

  it('keeps a session’s coverage across its reset; DELETE with X-Mock-Session clears only it', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get('/v1/pets').set(petHeaders('w2')).expect(200);
    await request(app).post('/__admin/reset').set(sessionHeader('w1')).expect(204);
    expect((await coverageOf(app, 'w1')).summary.covered).toBe(1);
    await request(app).delete('/__admin/coverage').set(sessionHeader('w1')).expect(204);
    expect((await coverageOf(app, 'w1')).summary.covered).toBe(0);
    expect((await coverageOf(app, 'w2')).summary.covered).toBe(1);
    // The suite's coverage keeps w1's answers: a worker clearing its own does not undo the suite's.
    expect(countsOf(await coverageOf(app), 'listPets')['200']).toEqual([2, 0]);
    await request(app).delete('/__admin/coverage').expect(204);
    expect((await coverageOf(app, 'w2')).summary.covered).toBe(0);
    expect((await coverageOf(app)).summary.covered).toBe(0);
  });

  it('keeps the answers of dropped sessions in the suite’s coverage', async () => {
    const { app, state } = await createTestApp({ pets: somePets(3), maxSessions: 1 });
    await request(app).get('/v1/pets').set(petHeaders('w1')).expect(200);
    await request(app).get('/v1/pets/1').set(petHeaders('w2')).expect(200);
    expect(await isLive(state, 'w1')).toBe(false);
    expect((await coverageOf(app, 'w1')).summary.covered).toBe(0);
    expect((await coverageOf(app)).summary.covered).toBe(2);
  });

  it('refuses a malformed X-Mock-Session with 422', async () => {
    const { app } = await createTestApp();
    const bad = { 'X-Mock-Session': 'not valid!' };
    expectError(await request(app).get('/__admin/coverage').set(bad), 422, 'invalid_session');
    expectError(await request(app).delete('/__admin/coverage').set(bad), 422, 'invalid_session');
  });
});

describe('coverage formats', () => {
  it('?format=markdown: a table naming every operation, as text/markdown', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await exerciseOnce(app);
    const res = await request(app).get('/__admin/coverage?format=markdown').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toContain('6 of 8 documented answers (75%)');
    for (const id of ['listPets', 'createPet', 'getPet']) expect(res.text).toContain(`| ${id} |`);
    expect(res.text).toContain('❌ never answered');
  });

  it('?format=junit: one test case per documented pair, failed when never answered', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    await exerciseOnce(app);
    const res = await request(app).get('/__admin/coverage?format=junit').expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text.match(/<testcase /g)).toHaveLength(8);
    expect(res.text.match(/<failure /g)).toHaveLength(2);
    expect(res.text).toContain('tests="8" failures="2"');
  });

  it('?format=json is the default; another format is 400 from the admin document', async () => {
    const { app } = await createTestApp();
    const json = await request(app).get('/__admin/coverage?format=json').expect(200);
    expect(readCoverageReport(json.body).summary.documented).toBe(8);
    expectError(await request(app).get('/__admin/coverage?format=html'), 400, 'bad_request');
  });

  it('answers the format asked for, whatever the Accept header', async () => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get('/__admin/coverage?format=markdown')
      .accept('text/markdown')
      .expect(200);
    expect(res.text).toMatch(/^### Contract coverage/);
  });
});
