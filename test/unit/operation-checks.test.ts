import { createOperationChecks } from '../../src/contract/operation-checks.js';
import type { Operation } from '../../src/contract/operation-index.js';
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
    expect(listPets.request({ params: {}, query, body: undefined })).toEqual([]);
    expect(query.limit).toBe(5);
  });

  it.each([
    [{ limit: '0' }, '/query/limit', 'must be >= 1'],
    [{ limit: '101' }, '/query/limit', 'must be <= 100'],
    [{ status: 'lost' }, '/query/status', 'must be equal to one of the allowed values'],
    [{ limt: '5' }, '/query/limt', "Unknown query parameter 'limt'"],
  ])('name what is wrong in the query %j', (query, path, message) => {
    expect(listPets.request({ params: {}, query, body: undefined })).toEqual([{ path, message }]);
  });

  it('check path parameters against their schema', () => {
    expect(getPet.request({ params: { petId: '12' }, query: {}, body: undefined })).toEqual([]);
    expect(getPet.request({ params: { petId: 'x' }, query: {}, body: undefined })).toEqual([
      { path: '/params/petId', message: 'must be integer' },
    ]);
  });

  it('require the body the contract requires, and check it without coercion', () => {
    expect(createPet.request({ params: {}, query: {}, body: undefined })).toEqual([
      { path: '/body', message: "must have required property 'body'" },
    ]);
    expect(
      createPet.request({ params: {}, query: {}, body: { name: 'a', categoryId: '1' } }),
    ).toEqual([{ path: '/body/categoryId', message: 'must be integer' }]);
    expect(createPet.request({ params: {}, query: {}, body: { name: 'a' } })).toEqual([
      { path: '/body/categoryId', message: "must have required property 'categoryId'" },
    ]);
  });

  it('check each documented answer against its own schema', () => {
    expect(createPet.response(201, { id: 1, name: 'a', categoryId: 1 })).toEqual([]);
    expect(createPet.response(201, { id: 1, name: 'a' })).toEqual([
      { path: '/response/categoryId', message: "must have required property 'categoryId'" },
    ]);
    expect(listPets.response(200, [{ id: 1, name: 'a', categoryId: 1.5 }])).toContainEqual({
      path: '/response/0/categoryId',
      message: 'must be integer',
    });
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
