import { createOperationChecks } from '../../src/contract/operation-checks.js';
import { createOperationIndex, type Operation } from '../../src/contract/operation-index.js';
import { isOpenApiDocument } from '../../src/contract/openapi-document.js';
import { contract } from '../helpers/test-app.js';

const checksOf = createOperationChecks(contract.document);

function operation(id: string): Operation {
  const op = contract.operations.byId(id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
}

describe('compiled checks of the contract (the pet API path)', () => {
  const listPets = checksOf(operation('listPets'));
  const createPet = checksOf(operation('createPet'));
  const getPet = checksOf(operation('getPet'));

  it('coerce integer parameters, writing numbers back into the query', () => {
    const query: Record<string, unknown> = { limit: '5', status: 'sold' };
    expect(listPets.request({ params: {}, headers: {}, query, body: undefined })).toEqual([]);
    expect(query.limit).toBe(5);
  });

  it.each([
    [{ limit: '0' }, '/query/limit', 'must be >= 1'],
    [{ limit: '101' }, '/query/limit', 'must be <= 100'],
    [
      { status: 'lost' },
      '/query/status',
      'must be equal to one of the allowed values: available, pending, sold',
    ],
    [{ limt: '5' }, '/query/limt', "Unknown query parameter 'limt'"],
  ])('name what is wrong in the query %j', (query, path, message) => {
    expect(listPets.request({ params: {}, headers: {}, query, body: undefined })).toEqual([
      { path, message },
    ]);
  });

  it('check path parameters against their schema', () => {
    expect(
      getPet.request({ params: { petId: '12' }, headers: {}, query: {}, body: undefined }),
    ).toEqual([]);
    expect(
      getPet.request({ params: { petId: 'x' }, headers: {}, query: {}, body: undefined }),
    ).toEqual([{ path: '/params/petId', message: 'must be integer' }]);
  });

  it('require the body the contract requires, and check it without coercion', () => {
    expect(createPet.request({ params: {}, headers: {}, query: {}, body: undefined })).toEqual([
      { path: '/body', message: "must have required property 'body'" },
    ]);
    expect(
      createPet.request({
        params: {},
        headers: {},
        query: {},
        body: { name: 'a', categoryId: '1' },
      }),
    ).toEqual([{ path: '/body/categoryId', message: 'must be integer' }]);
    expect(createPet.request({ params: {}, headers: {}, query: {}, body: { name: 'a' } })).toEqual([
      { path: '/body/categoryId', message: "must have required property 'categoryId'" },
    ]);
  });

  it('check each documented answer against its own schema', () => {
    expect(createPet.response(201, { id: 1, name: 'a', categoryId: 1 })).toEqual([]);
    expect(createPet.response(201, { id: 1, name: 'a' })).toEqual([
      { path: '/response/categoryId', message: "must have required property 'categoryId'" },
    ]);
    // One violation per place: not also `must match format "int64"`.
    expect(listPets.response(200, [{ id: 1, name: 'a', categoryId: 1.5 }])).toEqual([
      { path: '/response/0/categoryId', message: 'must be integer' },
    ]);
    expect(getPet.response(404, { code: 'not_found', message: 'none', status: 404 })).toEqual([]);
  });

  it('refuse an answer with a status the operation does not document', () => {
    expect(listPets.response(404, { code: 'not_found', message: 'x', status: 404 })).toEqual([
      { path: '/response', message: 'status 404 is not documented for listPets' },
    ]);
  });

  it('compile each operation once', () => {
    expect(checksOf(operation('listPets'))).toBe(listPets);
  });
});

describe('compiled checks over other OpenAPI documents', () => {
  const base = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    servers: [{ url: '/v1' }],
  };

  function checksFor(paths: Record<string, unknown>, components: Record<string, unknown> = {}) {
    const document: unknown = { ...base, paths, components };
    if (!isOpenApiDocument(document)) throw new Error('not an OpenAPI document');
    const operations = createOperationIndex(document);
    const op = operations.operations[0];
    if (!op) throw new Error('no operation');
    return createOperationChecks(document)(op);
  }

  const none = { params: {}, query: {}, headers: {}, body: undefined };

  it('check header parameters, by their name in lower case, without touching the request', () => {
    const checks = checksFor({
      '/x': {
        get: {
          operationId: 'x',
          parameters: [
            { name: 'X-Count', in: 'header', required: true, schema: { type: 'integer' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    });
    expect(checks.request(none)).toEqual([
      { path: '/headers/x-count', message: "must have required property 'x-count'" },
    ]);
    const headers = { 'x-count': '3' };
    expect(checks.request({ ...none, headers })).toEqual([]);
    expect(headers['x-count']).toBe('3');
    expect(checks.request({ ...none, headers: { 'x-count': 'many' } })).toEqual([
      { path: '/headers/x-count', message: 'must be integer' },
    ]);
  });

  it('let the operation override a path-level parameter of the same name', () => {
    const checks = checksFor({
      '/x': {
        parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'x',
          parameters: [{ name: 'q', in: 'query', required: false, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    });
    expect(checks.request(none)).toEqual([]);
  });

  it('check the standard formats the document uses', () => {
    const checks = checksFor({
      '/x': {
        post: {
          operationId: 'x',
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { at: { type: 'string', format: 'date-time' } },
                },
              },
            },
          },
          responses: { '201': { description: 'ok' } },
        },
      },
    });
    expect(checks.request(none)).toEqual([]);
    expect(checks.request({ ...none, body: { at: '2026-11-22T05:00:00Z' } })).toEqual([]);
    expect(checks.request({ ...none, body: { at: 'yesterday' } })).toEqual([
      { path: '/body/at', message: 'must match format "date-time"' },
    ]);
  });

  it('find an answer by exact status, then by range, then default', () => {
    const json = (schema: unknown) => ({
      description: 'd',
      content: { 'application/json': { schema } },
    });
    const checks = checksFor({
      '/x': {
        get: {
          operationId: 'x',
          responses: {
            '200': json({ type: 'integer' }),
            '2XX': json({ type: 'string' }),
            '204': { description: 'no body' },
            default: json({ type: 'boolean' }),
          },
        },
      },
    });
    expect(checks.response(200, 1)).toEqual([]);
    expect(checks.response(201, 'created')).toEqual([]);
    expect(checks.response(201, 1)).toEqual([{ path: '/response', message: 'must be string' }]);
    expect(checks.response(500, true)).toEqual([]);
    expect(checks.response(204, {})).toEqual([
      { path: '/response', message: 'status 204 documents no JSON body' },
    ]);
  });

  it.each([
    ['readOnly', { type: 'object', properties: { id: { type: 'integer', readOnly: true } } }],
    ['writeOnly', { type: 'object', properties: { pw: { type: 'string', writeOnly: true } } }],
  ])('refuse, at creation, a contract using %s rather than half-check it', (keyword, schema) => {
    expect(() =>
      checksFor(
        {
          '/x': {
            post: {
              operationId: 'x',
              requestBody: {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/S' } } },
              },
              responses: { '201': { description: 'ok' } },
            },
          },
        },
        { schemas: { S: schema } },
      ),
    ).toThrow(`do not support ${keyword}`);
  });

  it('refuse a contract with cookie parameters', () => {
    expect(() =>
      checksFor({
        '/x': {
          get: {
            operationId: 'x',
            parameters: [{ name: 'c', in: 'cookie', schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      }),
    ).toThrow('do not read cookies');
  });
});
