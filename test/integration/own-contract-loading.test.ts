/**
 * Bring your own contract, 1: loading. Any valid OpenAPI 3.0/3.1 document starts, whatever shape
 * it is written in; a broken one is a FileError naming file:line:column; the pet handlers answer
 * only the Pet Store's own operations, and pets are kept only where a Pet schema takes them.
 */
import request from 'supertest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { FileError } from '../../src/util/located-file.js';
import { expectError } from '../helpers/http-matrix.js';
import {
  errors,
  fileErrorOf,
  list,
  loadOwn,
  NO_RESOURCES,
  ownApp,
  ownPath,
  placeOf,
  record,
} from '../helpers/own-contract.js';
import { AUTH } from '../helpers/test-app.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

describe('a valid document starts, however it is written', () => {
  it('JSON as well as YAML', async () => {
    const { app } = await ownApp(loadOwn('loading', 'catalogue.json'));
    const res = await request(app).get('/catalogue/products').expect(200);
    expect(res.headers['x-mock-answer']).toBe('example');
    expect(res.body).toEqual([{ sku: 'TEA-001', name: 'Green tea', price: 4.5 }]);
  });

  describe('split over files, each $ref relative to the file that writes it', () => {
    const split = loadOwn('loading', 'split', 'openapi.yaml');
    // The contract answers, not the resource its shelves would be: reading the files is the point.
    const splitApp = () => ownApp(split, { resources: NO_RESOURCES });

    it('reads every file, nested folders and cycles across files included', () => {
      const beside = [
        ['paths', 'books.yaml'],
        ['paths', 'shelves.yaml'],
        ['parameters.yaml'],
        ['schemas', 'book.yaml'],
        ['schemas', 'people', 'author.yaml'],
        ['schemas', 'series.yaml'],
        ['schemas', 'shelf.yaml'],
      ].map((parts) => ownPath('loading', 'split', ...parts));
      expect(split.files[0]).toBe(ownPath('loading', 'split', 'openapi.yaml'));
      expect([...split.files].sort()).toEqual(
        [ownPath('loading', 'split', 'openapi.yaml'), ...beside].sort(),
      );
    });

    it("answers a path item's example written in another file", async () => {
      const { app, logs } = await splitApp();
      const res = await request(app).get('/library/books').expect(200);
      expect(res.body).toEqual([
        { isbn: '9780141036144', title: 'Nineteen Eighty-Four', author: { name: 'George Orwell' } },
      ]);
      expect(errors(logs)).toEqual([]);
    });

    it('generates from schemas in other files, cycles bounded, and validates the answer', async () => {
      const { app, logs } = await splitApp();
      const res = await request(app).get('/library/shelves/2').expect(200);
      expect(res.headers['x-mock-answer']).toBe('generated');
      const shelf = record(res.body);
      for (const book of list(shelf.books)) {
        expect(record(book).isbn).toMatch(/^\d{13}$/);
        expect(typeof record(record(book).author).name).toBe('string');
      }
      // The validator checked it against the bundled schemas: a breach would be a 500 and a line.
      expect(errors(logs)).toEqual([]);
    });

    it('checks a request against a parameter written in another file', async () => {
      const { app } = await splitApp();
      const res = await request(app).get('/library/shelves/0');
      expect(expectError(res, 400, 'bad_request').message).toContain('shelfId');
    });
  });

  describe('what strict tools choke on', () => {
    const quirks = loadOwn('loading', 'quirks.yaml');
    // The contract answers, not the resource its documents would be: its examples are the point.
    const quirksApp = () => ownApp(quirks, { resources: NO_RESOURCES });

    it('names operations without an operationId by method and path template', () => {
      expect(quirks.operations.operations.map((op) => op.name)).toEqual([
        'GET /documents',
        'GET /documents/{docId}',
        'DELETE /documents/{docId}',
      ]);
    });

    it("answers examples whose objects carry `$id` and `id` as they are (no schema's name)", async () => {
      const { app } = await quirksApp();
      const res = await request(app).get('/archive/documents').expect(200);
      expect(res.headers['x-mock-answer']).toBe('example');
      expect(list(res.body).map((doc) => record(doc).$id)).toEqual([
        'https://docs.example.com/archive/documents/urn:doc:1',
        'https://docs.example.com/archive/documents/urn:doc:2',
      ]);
    });

    it("answers a schema's own example (the one with `$id`) where the media type has none", async () => {
      const { app } = await quirksApp();
      const res = await request(app).get('/archive/documents/urn:doc:7').expect(200);
      expect(res.headers['x-mock-answer']).toBe('example');
      expect(res.body).toEqual({
        $id: 'https://docs.example.com/archive/documents/urn:doc:7',
        id: 'urn:doc:7',
        title: 'Charter',
        owner: 'Ada',
      });
    });

    it('keeps a pattern with needless escapes (`\\:`) meaning what it says', async () => {
      const { app } = await quirksApp();
      const res = await request(app).get('/archive/documents/doc-7');
      expect(expectError(res, 400, 'bad_request').message).toContain('docId');
      expect(quirks.checkSchema('Document')(documentWith({ id: 'urn:doc:x' }))).not.toEqual([]);
    });

    it('answers a response written as a $ref with `content: {}` with no body', async () => {
      const { app } = await quirksApp();
      const res = await request(app).delete('/archive/documents/urn:doc:7').expect(204);
      expect(res.text).toBe('');
    });

    it('follows a pointer that runs through a $ref (Team.lead → Person.name)', () => {
      const check = quirks.checkSchema('Document');
      expect(check(documentWith({}))).toEqual([]);
      // Person.name has minLength 2.
      expect(check(documentWith({ owner: 'A' })).join(' ')).toContain('owner');
    });

    it('reads `nullable` without a `type` as allowing anything', () => {
      const check = quirks.checkSchema('Document');
      expect(check(documentWith({ note: null }))).toEqual([]);
      expect(check(documentWith({ note: { any: 'thing' } }))).toEqual([]);
    });
  });

  describe('OpenAPI 3.1 without paths', () => {
    it('a document of webhooks alone starts, and every path is a JSON 404', async () => {
      const alerts = loadOwn('loading', 'webhooks-only.yaml');
      expect(alerts.operations.operations).toEqual([]);
      const { app } = await ownApp(alerts);
      expectError(await request(app).get('/alertRaised'), 404, 'not_found');
      await request(app).get('/__admin/health').expect(200);
    });

    it('a document of components alone starts, its schemas usable', () => {
      const shared = loadOwn('loading', 'components-only.yaml');
      expect(shared.operations.operations).toEqual([]);
      expect(shared.checkSchema('Money')({ amount: '12.50', currency: 'EUR' })).toEqual([]);
      expect(shared.checkSchema('Money')({ amount: '12.5', currency: 'EUR' })).not.toEqual([]);
    });
  });
});

/** A Document of quirks.yaml that keeps to its schema, with some fields changed. */
function documentWith(changes: Record<string, unknown>): Record<string, unknown> {
  return {
    $id: 'https://docs.example.com/archive/documents/urn:doc:7',
    id: 'urn:doc:7',
    title: 'Charter',
    owner: 'Ada',
    ...changes,
  };
}

describe('a broken document is a FileError at the place of its fault', () => {
  it('a $ref to a missing file names the file that writes it, and where', () => {
    const order = ownPath('loading', 'broken', 'missing-file', 'schemas', 'order.yaml');
    const error = fileErrorOf(() => loadOwn('loading', 'broken', 'missing-file', 'openapi.yaml'));
    expect(error.file).toBe(order);
    expect(error.position).toEqual(placeOf(order, './line-item.yaml'));
    expect(error.reason).toMatch(/^\$ref \.\/line-item\.yaml: cannot read/);
  });

  it('a $ref to nothing in another file names the $ref as written, and where', () => {
    const root = ownPath('loading', 'broken', 'missing-pointer', 'openapi.yaml');
    const error = fileErrorOf(() =>
      loadOwn('loading', 'broken', 'missing-pointer', 'openapi.yaml'),
    );
    expect(error.file).toBe(root);
    expect(error.position).toEqual(placeOf(root, "'./common.yaml#/Customer'"));
    expect(error.reason).toBe('$ref ./common.yaml#/Customer points at nothing in the document');
  });

  it('a local $ref to nothing inside a file beside the contract names that file', () => {
    const common = ownPath('loading', 'broken', 'missing-local', 'common.yaml');
    const error = fileErrorOf(() => loadOwn('loading', 'broken', 'missing-local', 'openapi.yaml'));
    expect(error.file).toBe(common);
    expect(error.position).toEqual(placeOf(common, "'#/Adress'"));
    expect(error.reason).toBe('$ref #/Adress points at nothing in the document');
    expect(error.message).toMatch(new RegExp(`^${common}:\\d+:\\d+: `));
  });

  it('stops startMockServer({ contract }) with the same error', async () => {
    const path = ownPath('loading', 'broken', 'missing-pointer', 'openapi.yaml');
    await expect(startMockServer({ contract: path })).rejects.toThrow(
      `${path}:${placeOf(path, "'./common.yaml#/Customer'").line}:`,
    );
  });
});

describe("the pet handlers answer only the Pet Store's own operations", () => {
  const running: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => mock.close()));
  });

  async function start(file: string): Promise<MockServer> {
    const mock = await startMockServer({ contract: ownPath('pets', file) });
    running.push(mock);
    return mock;
  }

  it('a contract with their operations and a Pet schema that fits keeps the packaged pets', async () => {
    const mock = await start('pet-store-like.yaml');
    expect(mock.url).toMatch(/\/zoo$/);
    const listed = await fetch(`${mock.url}/pets?limit=100`, { headers: AUTH });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-mock-answer')).toBeNull();
    expect(list(await listed.json())).toHaveLength(30);
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Zebra', categoryId: 9 }),
    });
    expect(created.status).toBe(201);
    const { id } = record(await created.json());
    const got = await fetch(`${mock.url}/pets/${String(id)}`, { headers: AUTH });
    expect(record(await got.json()).name).toBe('Zebra');
  });

  it('its other operations are answered from the contract', async () => {
    const mock = await start('pet-store-like.yaml');
    const res = await fetch(`${mock.url}/pets/1/vaccinations`, { headers: AUTH });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-answer')).toBe('example');
    expect(await res.json()).toEqual([{ vaccine: 'rabies', date: '2026-02-01' }]);
  });

  it('the same operationIds on other paths are a resource of their own, not the packaged pets', async () => {
    const { app } = await ownApp(loadOwn('pets', 'renamed-paths.yaml'));
    const listed = await request(app).get('/shelter/animals').expect(200);
    expect(listed.headers['x-mock-answer']).toBeUndefined();
    // The three seeded items (--item-count), not the 30 packaged pets nor the contract's example.
    const animals = list(listed.body).map(record);
    expect(animals.map((animal) => animal.id)).toEqual([1, 2, 3]);
    const got = await request(app).get('/shelter/animals/1').expect(200);
    expect(got.body).toEqual(animals[0]);
    expectError(await request(app).get('/shelter/animals/99'), 404, 'not_found');
  });

  it('without a Pet schema the contract answers, and nothing requires one', async () => {
    const mock = await start('no-pet-schema.yaml');
    const res = await fetch(`${mock.url}/pets`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-answer')).toBe('example');
    expect(await res.json()).toEqual([{ tag: 'F-17', species: 'goat' }]);
  });

  it('a Pet schema the packaged pets do not fit: no pets kept, the start goes on', async () => {
    const mock = await start('strict-pet.yaml');
    const res = await fetch(`${mock.url}/pets`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-answer')).toBeNull();
    expect(await res.json()).toEqual([]);
  });

  it('--fixtures with a contract that has no Pet schema stops the start, naming the contract', async () => {
    const dir = makeTmpDir();
    try {
      const fixtures = writeTmpFile(dir, 'pets.json', [{ id: 1, name: 'Rex', categoryId: 1 }]);
      const contract = ownPath('pets', 'no-pet-schema.yaml');
      const start = startMockServer({ contract, fixtures });
      await expect(start).rejects.toBeInstanceOf(FileError);
      await expect(start).rejects.toMatchObject({ file: contract });
      await expect(start).rejects.toThrow('--fixtures');
    } finally {
      removeTmpDir(dir);
    }
  });
});
