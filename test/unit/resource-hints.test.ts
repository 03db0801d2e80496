import { inferResources } from '../../src/contract/infer-resources.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { hintsFilePath, readResourceHints } from '../../src/contract/resource-hints.js';
import type { ResourceModel } from '../../src/contract/resource-model.js';
import { FileError } from '../../src/util/located-file.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

// Hints where inference cannot see: `x-mock-*` extensions in the contract, and a hints file
// beside it (which wins), read strictly.

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(() => {
  removeTmpDir(dir);
});

type Json = Record<string, unknown>;

const PERSON = {
  type: 'object',
  properties: {
    handle: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string' },
  },
};

/**
 * People keyed by a `login` the item does not have (inference finds no key), listed with a
 * query `q` that names no property and a `status` that does.
 */
function peopleContract(extensions: { item?: Json; list?: Json; q?: Json } = {}): Json {
  const ref = { $ref: '#/components/schemas/Person' };
  return {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/people': {
        get: {
          operationId: 'listPeople',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'string' }, ...extensions.q },
            { name: 'status', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'array', items: ref } } },
            },
          },
          ...extensions.list,
        },
        // A create too: a resource needs a list or a create besides its read.
        post: {
          operationId: 'createPerson',
          requestBody: { content: { 'application/json': { schema: ref } } },
          responses: {
            '201': { description: 'ok', content: { 'application/json': { schema: ref } } },
          },
        },
      },
      '/people/{login}': {
        get: {
          operationId: 'getPerson',
          parameters: [{ name: 'login', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: ref } } },
          },
        },
        ...extensions.item,
      },
    },
    components: { schemas: { Person: PERSON } },
  };
}

/** The model of a contract with its hints (and a hints file, where given). */
function modelOf(document: Json, hintsFile?: string): ResourceModel {
  const path = writeTmpFile(dir, 'openapi.json', document);
  if (hintsFile !== undefined) writeTmpFile(dir, 'openapi.mock-hints.yaml', hintsFile);
  const contract = loadContract(path, { checked: true });
  const hints = readResourceHints(path, contract.document, contract.operations);
  return inferResources(contract.document, contract.operations, hints);
}

/** The FileError the hints are refused with. */
function refusal(document: Json, hintsFile?: string): FileError {
  try {
    modelOf(document, hintsFile);
  } catch (error) {
    if (error instanceof FileError) return error;
    throw error;
  }
  throw new Error('the hints were accepted');
}

describe('resource hints in the contract (x-mock-*)', () => {
  it('finds no key without a hint, and says how to name one', () => {
    const model = modelOf(peopleContract());
    expect(model.resources).toEqual([]);
    expect(model.stateless.find((s) => s.operation === 'getPerson')?.reason).toMatch(
      /x-mock-key can name it/,
    );
  });

  it('names the key with x-mock-key, and records that a hint decided it', () => {
    const model = modelOf(peopleContract({ item: { 'x-mock-key': 'handle' } }));
    const [people] = model.resources;
    expect(people?.key).toMatchObject({ property: 'handle', parameter: 'login', kind: 'string' });
    expect(people?.hints).toEqual(['key handle (x-mock-key)']);
  });

  it('maps a query parameter to a property with x-mock-filter, or to none with false', () => {
    const model = modelOf(
      peopleContract({ item: { 'x-mock-key': 'handle' }, q: { 'x-mock-filter': 'name' } }),
    );
    const list = model.resources[0]?.operations.find((op) => op.role === 'list');
    expect(list?.list?.filters).toEqual([
      { parameter: 'q', property: 'name' },
      { parameter: 'status', property: 'status' },
    ]);
    expect(model.resources[0]?.hints).toContain('listPeople: q filters name (x-mock-filter)');
    const none = modelOf(
      peopleContract({ item: { 'x-mock-key': 'handle' }, q: { 'x-mock-filter': false } }),
    );
    expect(none.resources[0]?.operations[0]?.list?.filters).toEqual([
      { parameter: 'status', property: 'status' },
    ]);
  });

  it('keeps an operation stateless with x-mock-stateless', () => {
    const model = modelOf(
      peopleContract({ item: { 'x-mock-key': 'handle' }, list: { 'x-mock-stateless': true } }),
    );
    expect(model.stateless).toEqual([{ operation: 'listPeople', reason: 'x-mock-stateless' }]);
    expect(model.resources[0]?.operations.map((op) => op.operation)).toEqual([
      'createPerson',
      'getPerson',
    ]);
    expect(model.resources[0]?.hints).toContain('listPeople kept stateless (x-mock-stateless)');
  });

  it('leaves the resource out where x-mock-key names a property the item lacks', () => {
    const model = modelOf(peopleContract({ item: { 'x-mock-key': 'nickname' } }));
    expect(model.resources).toEqual([]);
    expect(model.stateless.find((s) => s.operation === 'getPerson')?.reason).toBe(
      'x-mock-key names nickname, which the item of /people/{login} has not',
    );
  });

  it.each([
    [{ item: { 'x-mock-key': 7 } }, 'x-mock-key of /people/{login} must be a property name'],
    [
      { list: { 'x-mock-stateless': 'yes' } },
      'x-mock-stateless of listPeople must be true or false',
    ],
    [
      { q: { 'x-mock-filter': 3 } },
      'x-mock-filter of the query parameter q of listPeople must be a property name or false',
    ],
  ])('refuses an extension of the wrong type, naming the contract: %j', (extensions, reason) => {
    const error = refusal(peopleContract(extensions));
    expect(error.file).toBe(`${dir}/openapi.json`);
    expect(error.reason).toBe(reason);
  });
});

describe('the hints file beside the contract', () => {
  it('is named after the contract', () => {
    expect(hintsFilePath('/x/openapi.yaml')).toBe('/x/openapi.mock-hints.yaml');
    expect(hintsFilePath('/x/api.v2.json')).toBe('/x/api.v2.mock-hints.yaml');
  });

  it('names keys, filters and stateless operations, and wins over the contract', () => {
    const model = modelOf(
      peopleContract({ item: { 'x-mock-key': 'nickname' }, q: { 'x-mock-filter': 'status' } }),
      [
        'resources:',
        '  /people: { key: handle }',
        'operations:',
        '  listPeople:',
        '    filters: { q: name, status: false }',
        '  GET /people/{login}:',
        '    stateless: false',
      ].join('\n'),
    );
    const [people] = model.resources;
    expect(people?.key.property).toBe('handle');
    expect(people?.operations.find((op) => op.role === 'list')?.list?.filters).toEqual([
      { parameter: 'q', property: 'name' },
    ]);
    expect(people?.hints).toEqual([
      'key handle (openapi.mock-hints.yaml)',
      'listPeople: q filters name (openapi.mock-hints.yaml)',
      'listPeople: status is no filter (openapi.mock-hints.yaml)',
    ]);
  });

  it('keeps an operation stateless, saying where', () => {
    const model = modelOf(
      peopleContract({ item: { 'x-mock-key': 'handle' } }),
      'operations:\n  listPeople: { stateless: true }\n',
    );
    expect(model.stateless).toEqual([
      { operation: 'listPeople', reason: 'stateless in openapi.mock-hints.yaml' },
    ]);
  });

  it('takes an empty file as no hints', () => {
    expect(modelOf(peopleContract(), '# nothing yet\n').resources).toEqual([]);
  });

  it.each([
    [
      'an unknown key',
      'resource:\n  /people: { key: handle }\n',
      'unknown key "resource" (expected resources or operations)',
      2,
      3,
    ],
    [
      'a path the contract lacks',
      'resources:\n  /persons:\n    key: handle\n',
      'the contract has no path /persons',
      3,
      5,
    ],
    [
      'an unknown key of a resource',
      'resources:\n  /people:\n    id: handle\n',
      'unknown key "id" (expected key)',
      3,
      9,
    ],
    [
      'a key that is no name',
      'resources:\n  /people:\n    key: [handle]\n',
      'expected the name of a property of the item',
      3,
      10,
    ],
    [
      'an operation the contract lacks',
      'operations:\n  deletePerson:\n    stateless: true\n',
      'the contract has no operation deletePerson',
      3,
      5,
    ],
    [
      'stateless that is no boolean',
      'operations:\n  listPeople:\n    stateless: "yes"\n',
      'stateless must be true or false',
      3,
      16,
    ],
    [
      'a parameter the operation lacks',
      'operations:\n  listPeople:\n    filters:\n      sort: name\n',
      'listPeople has no query parameter sort',
      4,
      13,
    ],
    [
      'a filter that is neither a name nor false',
      'operations:\n  listPeople:\n    filters:\n      q: true\n',
      'expected the name of a property of the item, or false',
      4,
      10,
    ],
    ['a file that is no mapping', '- resources\n', 'expected a mapping', 1, 1],
    [
      'a file that is no YAML',
      'resources: {\n',
      'Flow map in block collection must be sufficiently indented and end with a }',
      2,
      1,
    ],
  ])('refuses %s with its line and column', (_what, text, reason, line, column) => {
    const error = refusal(peopleContract(), text);
    expect(error.file).toBe(`${dir}/openapi.mock-hints.yaml`);
    expect(error.reason).toMatch(reason);
    expect(error.position).toEqual({ line, column });
  });
});
