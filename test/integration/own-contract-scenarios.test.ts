/**
 * Bring your own contract, 7: scenarios. The built-in ones apply to a user's contract where they
 * make sense (the operations that document what they force; a secured operation's 401 always);
 * scenario folders add up (built-ins, ./scenarios, --scenarios-dir; a file of the same name
 * wins); a user's own file is still checked strictly; a forced error takes the contract's own
 * error shape where that is not the mock's.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { loadScenarioFolders, loadScenarios } from '../../src/contract/load-scenarios.js';
import { startMockServer, type MockServer } from '../../src/index.js';
import { scenarioFoldersOf } from '../../src/server/load-definition.js';
import { FileError } from '../../src/util/located-file.js';
import { defaultScenariosDir } from '../../src/util/paths.js';
import { fileErrorOf, loadOwn, ownApp, ownPath, placeOf, record } from '../helpers/own-contract.js';
import {
  asScenarioListing,
  expectError,
  getOverSocket,
  type SocketOutcome,
} from '../helpers/scenario-http.js';
import { AUTH, shippedScenarios } from '../helpers/test-app.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

const clinic = loadOwn('scenarios', 'clinic.yaml');

async function clinicApp(seed?: number): Promise<Express> {
  return (await ownApp(clinic, seed === undefined ? {} : { seed })).app;
}

function forced(client: Express, scenario: string) {
  return {
    get: (path: string) =>
      request(client).get(`/clinic${path}`).set(AUTH).set('X-Mock-Scenario', scenario),
  };
}

describe('the built-in scenarios apply where they make sense', () => {
  it('each lists the operations of the contract it applies to, and whether that is all', async () => {
    const res = await request(await clinicApp())
      .get('/__admin/scenarios')
      .expect(200);
    const listed = Object.fromEntries(
      asScenarioListing(res.body).scenarios.map((s) => [
        s.name,
        { operations: s.operations, everyOperation: s.everyOperation },
      ]),
    );
    // A rule for `all` lists the contract's operations by name, never "all".
    const every = {
      operations: ['listAppointments', 'bookAppointment', 'getAppointment', 'getHealth'],
      everyOperation: true,
    };
    expect(listed).toEqual({
      // getHealth is public: it has no 401 to answer.
      unauthorized: {
        operations: ['listAppointments', 'bookAppointment', 'getAppointment'],
        everyOperation: false,
      },
      'not-found': { operations: ['getAppointment'], everyOperation: false },
      'invalid-request': {
        operations: ['listAppointments', 'bookAppointment'],
        everyOperation: false,
      },
      'server-error': {
        operations: ['listAppointments', 'getAppointment'],
        everyOperation: false,
      },
      slow: every,
      timeout: every,
      flaky: every,
      'connection-reset': every,
      'connection-closed': every,
    });
  });

  it("empty-catalogue is the Pet Store's alone, and server-error is not the Pet Store's", async () => {
    expect(shippedScenarios.has('empty-catalogue')).toBe(true);
    expect(shippedScenarios.has('server-error')).toBe(false);
    const res = await forced(await clinicApp(), 'empty-catalogue').get('/appointments');
    expectError(res, 422, 'unknown_scenario');
  });

  it("empty-catalogue applies to a contract with the Pet Store's listPets", async () => {
    const { app } = await ownApp(loadOwn('pets', 'pet-store-like.yaml'));
    const res = await request(app)
      .get('/zoo/pets')
      .set(AUTH)
      .set('X-Mock-Scenario', 'empty-catalogue')
      .expect(200);
    expect(res.body).toEqual([]);
  });
});

describe('unauthorized', () => {
  it("a 401 in the contract's own shape where the operation documents one", async () => {
    const res = await forced(await clinicApp(), 'unauthorized').get('/appointments');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Please sign in again.' });
    expect(res.headers['x-mock-error']).toBe('Invalid credentials.');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it("where it documents none, a 401 like the mock's own", async () => {
    const client = await clinicApp();
    const res = await request(client)
      .post('/clinic/appointments')
      .set(AUTH)
      .set('X-Mock-Scenario', 'unauthorized')
      .send({ id: 3, patient: 'Alan' });
    const body = expectError(res, 401, 'unauthorized');
    expect(body.message).toBe('Invalid credentials.');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it("a rule that names the Pet Store's operations applies to them, the general one elsewhere", async () => {
    const { app } = await ownApp(loadOwn('pets', 'pet-store-like.yaml'));
    const header = { 'X-Mock-Scenario': 'unauthorized' };
    const pets = await request(app).get('/zoo/pets').set(AUTH).set(header);
    expect(expectError(pets, 401, 'unauthorized').message).toBe('Invalid API key.');
    const shots = await request(app).get('/zoo/pets/1/vaccinations').set(AUTH).set(header);
    expect(expectError(shots, 401, 'unauthorized').message).toBe('Invalid credentials.');
  });

  it('a public operation answers as usual', async () => {
    const res = await forced(await clinicApp(), 'unauthorized')
      .get('/health')
      .expect(200);
    expect(res.body).toEqual({ up: true });
  });
});

describe('not-found, invalid-request and server-error', () => {
  it("not-found: the 404 in the contract's own shape and media type", async () => {
    const res = await forced(await clinicApp(), 'not-found').get('/appointments/1');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text)).toEqual({
      type: 'https://clinic.example.com/problems/no-appointment',
      title: 'No such appointment',
      status: 404,
    });
    expect(res.headers['x-mock-error']).toBe('The requested resource does not exist.');
  });

  it('not-found leaves an operation that documents no 404 alone', async () => {
    await forced(await clinicApp(), 'not-found')
      .get('/appointments')
      .expect(200);
  });

  it("invalid-request: the 400, in the mock's shape that the contract's Error takes", async () => {
    const res = await forced(await clinicApp(), 'invalid-request').get('/appointments');
    const body = expectError(res, 400, 'bad_request');
    expect(body.message).toBe('The request is missing required fields or contains invalid values.');
  });

  it('server-error: 500 where documented, else 503, else nothing', async () => {
    const client = await clinicApp();
    expectError(await forced(client, 'server-error').get('/appointments'), 500, 'internal_error');
    expectError(
      await forced(client, 'server-error').get('/appointments/1'),
      503,
      'service_unavailable',
    );
    await forced(client, 'server-error').get('/health').expect(200);
  });

  it("a Prefer: code=… error takes the contract's own shape too", async () => {
    const res = await request(await clinicApp())
      .get('/clinic/appointments/1')
      .set(AUTH)
      .set('Prefer', 'code=404');
    expect(res.status).toBe(404);
    expect(record(JSON.parse(res.text)).title).toBe('No such appointment');
    expect(res.headers['x-mock-error']).toEqual(expect.any(String));
  });
});

describe('delays and faults', () => {
  it('slow: answers after 800 ms or more', async () => {
    const client = await clinicApp();
    const started = Date.now();
    await forced(client, 'slow').get('/health').expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  });

  it('timeout: holds every operation for 30 s', () => {
    const timeout = loadScenarios(defaultScenariosDir, clinic, { builtIn: true }).get('timeout');
    expect(timeout?.rules).toEqual([
      {
        operations: 'all',
        delay: { fixed: 30_000 },
      },
    ]);
  });

  it.each([['connection-reset'], ['connection-closed']])(
    '%s: no answer at all',
    async (scenario) => {
      const outcome = await getOverSocket(await clinicApp(), '/clinic/health', {
        'X-Mock-Scenario': scenario,
      });
      expect(outcome).toMatchObject({ kind: 'error', sawResponse: false });
    },
  );

  it('flaky: about one in four reset, the same ones for the same seed', async () => {
    async function run(seed: number): Promise<string> {
      const client = await clinicApp(seed);
      const outcomes: SocketOutcome[] = [];
      for (let i = 0; i < 16; i += 1) {
        outcomes.push(
          await getOverSocket(client, '/clinic/health', { 'X-Mock-Scenario': 'flaky' }),
        );
      }
      return outcomes.map((outcome) => (outcome.kind === 'response' ? '.' : 'x')).join('');
    }
    const first = await run(5);
    expect(first).toContain('x');
    expect(first.split('x').length - 1).toBeLessThanOrEqual(8);
    expect(await run(5)).toBe(first);
  }, 20_000);
});

describe("a user's own scenario file is checked strictly", () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTmpDir();
  });
  afterEach(() => {
    removeTmpDir(dir);
  });

  function refusalOf(name: string, text: string): { error: FileError; path: string } {
    const path = writeTmpFile(dir, name, text);
    const error = fileErrorOf(() =>
      loadScenarioFolders([{ dir: defaultScenariosDir, builtIn: true }, { dir }], clinic),
    );
    return { error, path };
  }

  it('an operation the contract does not have is refused at file:line:column', () => {
    const { error, path } = refusalOf(
      'cancel.yaml',
      'description: Cancel.\nrules:\n  - operations: cancelAppointment\n    status: 404\n',
    );
    expect(error.file).toBe(path);
    expect(error.position).toEqual(placeOf(path, 'operations: cancelAppointment'));
    expect(error.reason).toContain('unknown operation "cancelAppointment"');
  });

  it('a status the operation does not document is refused', () => {
    const { error, path } = refusalOf(
      'teapot.yaml',
      'description: Tea.\nrules:\n  - operations: getAppointment\n    status: 418\n',
    );
    expect(error.message).toMatch(new RegExp(`^${path}:3:5: `));
    expect(error.reason).toContain('status 418 is not documented for getAppointment');
  });

  it('`all` with a status no operation documents is refused', () => {
    const { error, path } = refusalOf(
      'teapots.yaml',
      'description: Tea.\nrules:\n  - operations: all\n    status: 418\n',
    );
    expect(error.file).toBe(path);
    expect(error.reason).toContain('status 418 is not documented for any operation');
  });

  it('a file named as a built-in one takes its place', () => {
    const path = writeTmpFile(
      dir,
      'not-found.yaml',
      'description: Mine.\nrules:\n  - operations: getAppointment\n    status: 404\n    message: Struck off.\n',
    );
    const scenarios = loadScenarioFolders(
      [{ dir: defaultScenariosDir, builtIn: true }, { dir }],
      clinic,
    );
    expect(scenarios.get('not-found')).toEqual({
      name: 'not-found',
      description: 'Mine.',
      rules: [{ operations: ['getAppointment'], status: 404, message: 'Struck off.' }],
      source: path,
    });
  });

  it('stops a start with scenariosDir', async () => {
    writeTmpFile(dir, 'teapot.yaml', 'rules:\n  - operations: getAppointment\n    status: 418\n');
    await expect(
      startMockServer({ contract: ownPath('scenarios', 'clinic.yaml'), scenariosDir: dir }),
    ).rejects.toThrow('status 418 is not documented for getAppointment');
  });
});

describe('scenario folders add up', () => {
  let root: string;
  let mock: MockServer | undefined;
  const cwd = process.cwd();

  beforeEach(() => {
    root = makeTmpDir();
  });
  afterEach(async () => {
    process.chdir(cwd);
    await mock?.close();
    mock = undefined;
    removeTmpDir(root);
  });

  /** A working directory with ./scenarios, and a --scenarios-dir, each with files of its own. */
  function layout(): { work: string; extra: string } {
    const work = join(root, 'project');
    const local = join(work, 'scenarios');
    const extra = join(root, 'more-scenarios');
    mkdirSync(local, { recursive: true });
    mkdirSync(extra);
    writeTmpFile(
      local,
      'timeout.yaml',
      'description: local timeout\nrules:\n  - operations: all\n    delay: 3\n',
    );
    writeTmpFile(local, 'late-lunch.yaml', 'rules:\n  - operations: getHealth\n    delay: 5\n');
    writeTmpFile(
      local,
      'slow.yaml',
      'description: local slow\nrules:\n  - operations: all\n    delay: 1\n',
    );
    writeTmpFile(
      extra,
      'slow.yaml',
      'description: extra slow\nrules:\n  - operations: all\n    delay: 2\n',
    );
    writeTmpFile(
      extra,
      'closed-desk.yaml',
      'rules:\n  - operations: getHealth\n    fault: close\n',
    );
    return { work, extra };
  }

  it('built-ins, then ./scenarios of the working directory, then scenariosDir', () => {
    const { work, extra } = layout();
    expect(scenarioFoldersOf({ scenariosDir: extra }, work)).toEqual([
      { dir: defaultScenariosDir, builtIn: true },
      { dir: join(work, 'scenarios') },
      { dir: extra },
    ]);
  });

  it('a started mock serves all of them, a later file of the same name winning', async () => {
    const { work, extra } = layout();
    process.chdir(work);
    mock = await startMockServer({
      contract: ownPath('scenarios', 'clinic.yaml'),
      scenariosDir: extra,
    });
    const res = await fetch(`${mock.adminUrl}/scenarios`);
    const { scenarios } = asScenarioListing(await res.json());
    const names = scenarios.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining(['late-lunch', 'closed-desk', 'unauthorized', 'slow']),
    );
    expect(scenarios.find((s) => s.name === 'slow')?.description).toBe('extra slow');
    expect(scenarios.find((s) => s.name === 'timeout')?.description).toBe('local timeout');
    // An unknown name would be a 422 unknown_scenario: this one is known.
    const lunch = await fetch(`${mock.url}/health`, {
      headers: { 'X-Mock-Scenario': 'late-lunch' },
    });
    expect(lunch.status).toBe(200);
  });
});
