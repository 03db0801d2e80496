/**
 * Edit and see (issue 24): the contract, the scenarios and the fixtures, copied to a temporary
 * folder, edited while the mock runs. With --watch an edit applies by itself; POST /__admin/reload
 * and mock.reload() apply one on demand. A reload keeps the state, a broken edit never takes the
 * mock down, and every request runs on one version. Changes are waited for by polling, bounded.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configFromOptions } from '../../src/config/load-config.js';
import { startMockServer, type MockServer } from '../../src/index.js';
import { startServer, type StartedServer } from '../../src/server/start-server.js';
import { createLogger } from '../../src/util/logger.js';
import { isRecord } from '../../src/util/is-record.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';
import { captureLogger } from '../helpers/test-app.js';
import { defaultScenariosDir } from '../../src/util/paths.js';
import { countsOf } from '../helpers/coverage-http.js';
import { json, scriptedUpstream } from '../helpers/upstream.js';
import {
  copyMockFiles,
  editFile,
  pollUntil,
  with503,
  type MockFiles,
} from '../helpers/reload-files.js';

const AUTH = { Authorization: 'Bearer reload-test' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

let dir: string;
let files: MockFiles;
let mock: MockServer | undefined;

beforeEach(() => {
  dir = makeTmpDir();
  files = copyMockFiles(dir);
});

afterEach(async () => {
  await mock?.close();
  mock = undefined;
  removeTmpDir(dir);
});

/** A mock over the temporary copies; watching them unless told otherwise. */
async function startOnCopies(options: { watch?: boolean } = {}): Promise<MockServer> {
  mock = await startMockServer({ ...files, watch: options.watch ?? true });
  return mock;
}

function running(): MockServer {
  if (!mock) throw new Error('no mock');
  return mock;
}

async function pets(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${running().url}${path}`, { headers: { ...AUTH, ...headers } });
}

async function createPet(
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${running().url}/pets`, {
    method: 'POST',
    headers: { ...AUTH, ...JSON_TYPE, ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  const pet: unknown = await res.json();
  if (!isRecord(pet)) throw new Error('not a pet');
  return pet;
}

async function admin(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${running().adminUrl}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

interface ReloadField {
  status: string;
  file?: unknown;
  line?: unknown;
  column?: unknown;
  message?: unknown;
  at: string;
}

/** GET /__admin/health: its status code and its `reload` field. */
async function health(): Promise<{ status: number; reload: ReloadField | undefined }> {
  const { status, body } = await admin('/health');
  if (!isRecord(body)) throw new Error('health is not an object');
  const { reload } = body;
  if (reload === undefined) return { status, reload: undefined };
  if (!isRecord(reload) || typeof reload.status !== 'string' || typeof reload.at !== 'string') {
    throw new Error(`not a reload field: ${JSON.stringify(reload)}`);
  }
  return { status, reload: { ...reload, status: reload.status, at: reload.at } };
}

/** Waits until health reports a reload with `status`; returns the field. */
function reloadReported(status: 'ok' | 'failed', after = ''): Promise<ReloadField> {
  return pollUntil(`reload ${status} in health`, async () => {
    const { reload } = await health();
    return reload?.status === status && reload.at > after ? reload : undefined;
  });
}

async function nameOf(id: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await pets(`/pets/${String(id)}`, headers);
  if (res.status !== 200) return `HTTP ${String(res.status)}`;
  const body: unknown = await res.json();
  return isRecord(body) ? body.name : undefined;
}

/**
 * The place of the value written under the line `text` of a file (its `last` such line): the
 * line after it, indented one step more. What health names for a schema or a fixture entry.
 */
function lineAfter(
  path: string,
  text: string,
  { last = false } = {},
): { line: number; column: number } {
  const lines = readFileSync(path, 'utf8').split('\n');
  const index = last ? lines.lastIndexOf(text) : lines.indexOf(text);
  if (index < 0) throw new Error(`no line "${text}" in ${path}`);
  const next = lines[index + 1] ?? '';
  return { line: index + 2, column: next.length - next.trimStart().length + 1 };
}

const ORIGINAL_FIRST = 'Bella';

describe('--watch: an edit applies while the mock runs', () => {
  it('serves a scenario file written while running, within a bounded poll', async () => {
    await startOnCopies();
    const header = { 'X-Mock-Scenario': 'just-written' };
    expect((await pets('/pets', header)).status).toBe(422); // unknown scenario, for now
    writeFileSync(
      join(files.scenariosDir, 'just-written.yaml'),
      'rules:\n  - operations: listPets\n    status: 200\n    body: [{ id: 7, name: Written, categoryId: 1 }]\n',
    );
    const body = await pollUntil('the new scenario', async () => {
      const res = await pets('/pets', header);
      return res.status === 200 ? await res.json() : undefined;
    });
    expect(body).toEqual([{ id: 7, name: 'Written', categoryId: 1 }]);
  });

  it('applies an edited contract: a newly documented status can be asked for', async () => {
    await startOnCopies();
    const prefer = { Prefer: 'code=503' };
    expect((await pets('/pets', prefer)).status).toBe(422); // not in the contract yet
    editFile(files.contract, with503);
    const status = await pollUntil('503 documented', async () => {
      const res = await pets('/pets', prefer);
      return res.status === 422 ? undefined : res.status;
    });
    expect(status).toBe(503);
    expect((await health()).reload).toMatchObject({ status: 'ok' });
  });

  it('applies edited fixtures and keeps created pets, sessions, journals and coverage', async () => {
    await startOnCopies();
    const session = { 'X-Mock-Session': 'worker-1' };
    const mine = await createPet({ name: 'Kept', categoryId: 2 });
    const theirs = await createPet({ name: 'Theirs', categoryId: 3 }, session);
    expect(await nameOf(1)).toBe(ORIGINAL_FIRST);
    const journalBefore = await running().requests({ session: 'worker-1' });
    expect(journalBefore).toHaveLength(1);
    expect(countsOf(await running().coverage(), 'createPet')['201']).toEqual([2, 0]);

    editFile(files.fixtures, (text) => text.replace(`"${ORIGINAL_FIRST}"`, '"Bella the Second"'));
    await pollUntil('the new fixture name', async () =>
      (await nameOf(1)) === 'Bella the Second' ? true : undefined,
    );

    expect(await nameOf(1, session)).toBe('Bella the Second'); // every session's initial data
    expect(await nameOf(mine.id)).toBe('Kept');
    expect(await nameOf(theirs.id, session)).toBe('Theirs');
    const listed = await admin('/sessions');
    expect(JSON.stringify(listed.body)).toContain('"worker-1"');
    const journal = await running().requests({ session: 'worker-1' });
    expect(journal.map((entry) => entry.requestId)).toEqual(
      expect.arrayContaining(journalBefore.map((entry) => entry.requestId)),
    );
    expect(countsOf(await running().coverage(), 'createPet')['201']).toEqual([2, 0]);
    // The ids go on after the created ones.
    const next = await createPet({ name: 'After', categoryId: 1 });
    expect(Number(next.id)).toBe(Number(mine.id) + 1);
  });
});

/** A broken edit of one file: how to break it, and where health must point. */
interface BrokenEdit {
  readonly what: string;
  readonly file: (files: MockFiles) => string;
  readonly text: (original: string) => string;
  /** The line health names, when it is known exactly. */
  readonly line?: number;
}

const BROKEN_EDITS: readonly BrokenEdit[] = [
  {
    what: 'a contract that is not YAML',
    file: (f) => f.contract,
    text: (original) => original.replace('  title: Pet Store', '  title: [Pet Store'),
  },
  {
    what: 'a contract that is not OpenAPI',
    file: (f) => f.contract,
    text: () => 'title: Pet Store\nversion: 1.0.0\n',
    line: 1,
  },
  {
    what: 'a contract whose $ref points at nothing',
    file: (f) => f.contract,
    text: (original) =>
      original.replace("$ref: '#/components/schemas/Pets'", "$ref: '#/components/schemas/Nope'"),
  },
  {
    what: 'a scenario off the contract',
    file: (f) => join(f.scenariosDir, 'empty-catalogue.yaml'),
    text: (original) => original.replace('operations: listPets', 'operations: listOwners'),
    line: 3,
  },
  {
    what: 'fixtures off the contract',
    file: (f) => f.fixtures,
    text: (original) => original.replace('"name": "Max"', '"name": 5'),
  },
];

describe('a broken edit never takes the mock down', () => {
  it.each(BROKEN_EDITS)(
    '$what: the last good version serves, health names the place, a good edit clears it',
    async ({ file, text, line }) => {
      await startOnCopies();
      const path = file(files);
      const original = readFileSync(path, 'utf8');
      const before = await (await pets('/pets?limit=100')).json();

      writeFileSync(path, text(original));
      const failed = await reloadReported('failed');
      expect(failed.file).toBe(path);
      expect(failed.line).toEqual(line ?? expect.any(Number));
      expect(failed.column).toEqual(expect.any(Number));
      expect(failed.message).toEqual(expect.stringMatching(/\S/));
      expect((await health()).status).toBe(200);
      // The last good version serves: its pets, its scenarios.
      const res = await pets('/pets?limit=100');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(before);
      expect(await (await pets('/pets', { 'X-Mock-Scenario': 'empty-catalogue' })).json()).toEqual(
        [],
      );

      writeFileSync(path, original);
      await reloadReported('ok', failed.at);
      expect((await pets('/pets')).status).toBe(200);
    },
  );

  it('logs a failed reload at error level, with the file and the place', async () => {
    const { logger, lines } = captureLogger();
    mock = await startMockServer({ ...files, logger });
    editFile(files.contract, () => 'title: not OpenAPI\n');
    await expect(running().reload()).rejects.toThrow(/not applied/);
    const line = lines.find((entry) => entry.level === 50);
    expect(line?.reload).toMatchObject({ status: 'failed', file: files.contract, line: 1 });
  });
});

describe('--watch at start', () => {
  it('logs what it watches: the contract and its hints file, the scenario folders (built-in, then its own), the fixtures', async () => {
    const { logger, lines } = captureLogger();
    mock = await startMockServer({ ...files, watch: true, logger });
    const line = lines.find((entry) => Array.isArray(entry.watching));
    expect(line?.watching).toEqual([
      files.contract,
      // Watched though absent: a hints file written later applies.
      join(dir, 'openapi.mock-hints.yaml'),
      defaultScenariosDir,
      files.scenariosDir,
      files.fixtures,
    ]);
  });
});

describe('POST /__admin/reload', () => {
  it('applies an edit without --watch and says what changed', async () => {
    await startOnCopies({ watch: false });
    editFile(files.contract, with503);
    expect((await pets('/pets', { Prefer: 'code=503' })).status).toBe(422); // not watched
    const res = await admin('/reload', { method: 'POST' });
    expect(res).toEqual({
      status: 200,
      body: { changed: ['contract'], switchedOff: [], reset: false },
    });
    expect((await pets('/pets', { Prefer: 'code=503' })).status).toBe(503);
  });

  it('answers 422 with the error for a broken file, the last good version serving', async () => {
    await startOnCopies({ watch: false });
    editFile(files.contract, () => 'title: not OpenAPI\n');
    const res = await admin('/reload', { method: 'POST' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'reload_failed', status: 422 });
    expect(JSON.stringify(res.body)).toContain('openapi is missing');
    expect((await pets('/pets')).status).toBe(200);
  });

  it('refuses a contract the stored pets no longer satisfy, and applies it with reset=true', async () => {
    await startOnCopies({ watch: false });
    // Fixtures have categories 1 to 5: a new bound that refuses only the created pets.
    const big = await createPet({ name: 'Big', categoryId: 1000 });
    await createPet({ name: 'Bigger', categoryId: 2000 }, { 'X-Mock-Session': 'worker-1' });
    await createPet({ name: 'Small', categoryId: 2 });
    editFile(files.contract, (text) =>
      text.replace(
        '          description: Identifier of the category the animal belongs to.\n',
        '          description: Identifier of the category the animal belongs to.\n          maximum: 10\n',
      ),
    );

    const refused = await admin('/reload', { method: 'POST' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'reload_failed', status: 422 });
    const message = isRecord(refused.body) ? String(refused.body.message) : '';
    expect(message).toContain('2 stored pet(s) do not satisfy the new contract');
    expect(message).toContain(`pet ${String(big.id)} of the default session`);
    expect(message).toContain('categoryId');
    expect(message).toContain('reset=true');
    expect(await nameOf(big.id)).toBe('Big'); // nothing changed
    // Health names the contract at its Pet schema, as for any other contract it refuses.
    const failed = (await health()).reload;
    expect(failed).toMatchObject({
      status: 'failed',
      file: files.contract,
      ...lineAfter(files.contract, '    Pet:'),
    });
    expect(failed?.message).toEqual(
      expect.stringContaining('2 stored pet(s) do not satisfy the new contract'),
    );

    const applied = await admin('/reload?reset=true', { method: 'POST' });
    expect(applied).toEqual({
      status: 200,
      body: { changed: ['contract'], switchedOff: [], reset: true },
    });
    expect(await nameOf(big.id)).toBe('HTTP 404');
    expect(await nameOf(1)).toBe(ORIGINAL_FIRST);
    expect((await health()).reload).toMatchObject({ status: 'ok' });
    // The new contract serves: a category above 10 is refused now.
    const res = await fetch(`${running().url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, ...JSON_TYPE },
      body: JSON.stringify({ name: 'Big', categoryId: 1000 }),
    });
    expect(res.status).toBe(400);
  });
});

describe('POST /__admin/reload: fixtures that reach created pets', () => {
  it('refuses them naming the fixtures file at the entry that reaches, and applies with reset=true', async () => {
    await startOnCopies({ watch: false });
    const created = await createPet({ name: 'Late', categoryId: 1 });
    const reaching = Number(created.id) + 5;
    editFile(files.fixtures, (text) =>
      text.replace(
        /\n\]\s*$/,
        `,\n  {\n    "id": ${String(reaching)},\n    "name": "Early",\n    "categoryId": 2\n  }\n]\n`,
      ),
    );

    const refused = await admin('/reload', { method: 'POST' });
    expect(refused.status).toBe(422);
    const message = isRecord(refused.body) ? String(refused.body.message) : '';
    expect(message).toContain(`the new fixtures reach id ${String(reaching)}`);
    const failed = (await health()).reload;
    expect(failed).toMatchObject({
      status: 'failed',
      file: files.fixtures,
      ...lineAfter(files.fixtures, '  },', { last: true }),
    });
    expect(failed?.message).toEqual(
      expect.stringContaining(`created pet ${String(created.id)} after the old ones`),
    );
    expect(await nameOf(created.id)).toBe('Late'); // nothing changed

    const applied = await admin('/reload?reset=true', { method: 'POST' });
    expect(applied.status).toBe(200);
    expect(await nameOf(reaching)).toBe('Early');
  });
});

describe('proxy mode', () => {
  it('a reload applies the contract the relayed answers are judged by; the target stays', async () => {
    const upstream = await scriptedUpstream({
      'GET /pets': json(503, { code: 'down', message: 'Maintenance.', status: 503 }),
    });
    try {
      mock = await startMockServer({ ...files, proxyTarget: upstream.url, proxyStrict: true });
      expect((await pets('/pets')).status).toBe(502); // 503 is not documented yet
      editFile(files.contract, with503);
      await running().reload();
      const res = await pets('/pets');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ code: 'down', message: 'Maintenance.', status: 503 });
      expect(upstream.received).toHaveLength(2);
    } finally {
      await mock?.close();
      mock = undefined;
      await upstream.close();
    }
  });
});

describe('scenario switches across a reload', () => {
  /** A scenario of the user's folder only (a built-in one of the same name would stay). */
  const ownScenario = (): string => {
    const path = join(files.scenariosDir, 'own-empty.yaml');
    writeFileSync(path, 'rules:\n  - operations: listPets\n    status: 200\n    body: []\n');
    return path;
  };

  it('switches off a switch whose scenario file was deleted, and logs it', async () => {
    const own = ownScenario();
    const { logger, lines } = captureLogger();
    mock = await startMockServer({ ...files, watch: true, logger });
    await running().useScenario('own-empty');
    await running().useScenario('own-empty', { session: 'worker-1' });
    await running().useScenario('not-found', { session: 'worker-2' });
    expect(await (await pets('/pets')).json()).toEqual([]);

    unlinkSync(own);
    await pollUntil('the switch off', async () => {
      const listing = await admin('/scenarios');
      return isRecord(listing.body) && listing.body.active === null ? true : undefined;
    });
    const { body } = await admin('/sessions');
    expect(isRecord(body) ? body.sessions : undefined).toEqual(
      expect.arrayContaining([
        { id: null, active: null },
        { id: 'worker-1', active: null },
        { id: 'worker-2', active: { name: 'not-found', remaining: null } },
      ]),
    );
    expect((await (await pets('/pets')).json()) as unknown[]).not.toHaveLength(0);
    const warned = lines.filter((line) => String(line.msg).includes('own-empty is gone'));
    expect(warned).toHaveLength(2);
  });

  it('shows a --scenario whose file is gone as off, also after a reset brings its name back', async () => {
    const own = ownScenario();
    mock = await startMockServer({ ...files, watch: true, scenario: 'own-empty' });
    expect(await (await pets('/pets')).json()).toEqual([]);
    unlinkSync(own);
    await pollUntil('the switch off', async () => {
      const listing = await admin('/scenarios');
      return isRecord(listing.body) && listing.body.active === null ? true : undefined;
    });
    await running().reset();
    const listing = await admin('/scenarios');
    expect(isRecord(listing.body) ? listing.body.active : 'no body').toBeNull();
    const { body } = await admin('/sessions');
    expect(isRecord(body) ? body.sessions : undefined).toEqual([{ id: null, active: null }]);
    expect((await (await pets('/pets')).json()) as unknown[]).not.toHaveLength(0);
  });
});

describe('versions: every request runs on one', () => {
  it('answers no request with a 5xx while 5 reloads happen under 400 concurrent clients', async () => {
    await startOnCopies({ watch: false });
    const scenario = join(files.scenariosDir, 'which.yaml');
    const version = (n: number): void => {
      writeFileSync(
        scenario,
        `rules:\n  - operations: listPets\n    status: 200\n    body: [{ id: 1, name: v${String(n)}, categoryId: 1 }]\n`,
      );
    };
    version(0);
    await running().reload();
    const seen = new Map<string, number>();
    let reloading = true;
    let sent = 0;
    let answered = 0;
    const worker = async (): Promise<void> => {
      // Each worker goes on until the reloads are done and 800 are sent.
      while (reloading || sent < 800) {
        sent += 1;
        let key: string;
        try {
          const res = await pets('/pets', { 'X-Mock-Scenario': 'which' });
          const body: unknown = await res.json();
          const name = Array.isArray(body) && isRecord(body[0]) ? String(body[0].name) : '?';
          key = `${String(res.status)} ${name}`;
        } catch (error) {
          key = `error ${String(error)}`;
        }
        answered += 1;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 400 }, worker);
    for (let n = 1; n <= 5; n += 1) {
      // Answers come between the reloads: each version serves some.
      const mark = answered;
      await pollUntil('answers before the next reload', () =>
        Promise.resolve(answered >= mark + 20 ? true : undefined),
      );
      version(n);
      // The contract changes too, so that each reload builds a new validator.
      editFile(files.contract, (text) =>
        text.replace(/^ {2}version: .*$/m, `  version: 1.0.${String(n)}`),
      );
      const outcome = await running().reload();
      expect(outcome.changed).toEqual(['contract', 'scenarios']);
    }
    reloading = false;
    await Promise.all(workers);
    expect([...seen.keys()].filter((key) => !/^200 v[0-5]$/.test(key))).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(800);
    expect(seen.size).toBeGreaterThanOrEqual(5); // versions 0 to 4 at least, each before the next reload
    const last = await pets('/pets', { 'X-Mock-Scenario': 'which' });
    expect(await last.json()).toEqual([{ id: 1, name: 'v5', categoryId: 1 }]);
  }, 60_000);
});

describe('in-flight requests', () => {
  let server: StartedServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** The answer of a request whose body is sent in two parts: the second when told. */
  function halfSent(
    port: number,
    {
      method,
      path,
      headers = {},
    }: { method: string; path: string; headers?: Record<string, string> },
    body: string,
  ): { finish: () => void; answer: Promise<{ status: number; body: unknown }> } {
    const cut = Math.floor(body.length / 2);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      headers: {
        ...AUTH,
        ...JSON_TYPE,
        ...headers,
        'Content-Length': String(Buffer.byteLength(body)),
      },
    });
    const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      req.once('error', reject);
      req.once('response', (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        });
      });
    });
    req.write(body.slice(0, cut));
    return { finish: () => req.end(body.slice(cut)), answer };
  }

  /** A server over the copies, and a way to wait until it has received `count` requests. */
  async function startOnFiles(): Promise<{
    server: StartedServer;
    received: (count: number) => Promise<true>;
  }> {
    const config = configFromOptions({ port: 0, logLevel: 'silent', ...files });
    const started = await startServer(config, createLogger('silent', false));
    server = started;
    return {
      server: started,
      received: (count) =>
        pollUntil('the request received', () =>
          Promise.resolve(started.requestsReceived() >= count ? true : undefined),
        ),
    };
  }

  it('finish on the version they started with while the next one is applied', async () => {
    const versioned = join(files.scenariosDir, 'versioned.yaml');
    const version = (name: string): void => {
      writeFileSync(
        versioned,
        `rules:\n  - operations: createPet\n    status: 400\n    code: ${name}\n    message: Answered by ${name}.\n`,
      );
    };
    version('version-a');
    const { server: started, received } = await startOnFiles();
    const create = {
      method: 'POST',
      path: '/v1/pets',
      headers: { 'X-Mock-Scenario': 'versioned' },
    };
    // Arrived on version A (its app chose), its body not yet read: held by the client.
    const held = halfSent(started.port, create, JSON.stringify({ name: 'Held', categoryId: 1 }));
    await received(1);
    version('version-b');
    expect(await started.reload()).toMatchObject({ changed: ['scenarios'] });
    held.finish();
    expect(await held.answer).toMatchObject({ status: 400, body: { code: 'version-a' } });
    // A request that arrives now runs on B.
    const after = halfSent(started.port, create, JSON.stringify({ name: 'After', categoryId: 1 }));
    after.finish();
    expect(await after.answer).toMatchObject({ status: 400, body: { code: 'version-b' } });
  });

  it('read the fixtures of their version: new ones their contract refuses never reach them', async () => {
    // A: names of at most 10 characters. B: no bound, and a fixture name longer than that.
    const bound = '          maxLength: 10\n';
    const described = "          description: The animal's name.\n";
    editFile(files.contract, (text) => text.replace(described, described + bound));
    const { server: started, received } = await startOnFiles();
    // A GET whose body is still coming: it reads the pets once the body is in, after B applied.
    const get = { method: 'GET', path: '/v1/pets/1' };
    const held = halfSent(started.port, get, '{}');
    await received(1);
    editFile(files.contract, (text) => text.replace(bound, ''));
    editFile(files.fixtures, (text) => text.replace('"Bella"', '"Bella the Second of Her Name"'));
    expect(await started.reload()).toMatchObject({ changed: ['contract', 'fixtures'] });
    held.finish();
    expect(await held.answer).toMatchObject({ status: 200, body: { id: 1, name: 'Bella' } });
    const after = halfSent(started.port, get, '{}');
    after.finish();
    expect(await after.answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Bella the Second of Her Name' },
    });
  });
});
