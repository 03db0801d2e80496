import { createSchemaChecks } from '../../src/contract/schema-validator.js';
import { contract } from '../helpers/test-app.js';

describe('createSchemaChecks', () => {
  const checks = createSchemaChecks(() => contract.validatorDocument);
  const checkSchema = (name: string) => checks.component(name);

  it('accepts a value that matches the schema', () => {
    expect(checkSchema('Pet')({ id: 1, name: 'Rex', categoryId: 2, status: 'sold' })).toEqual([]);
    expect(checkSchema('Pets')([])).toEqual([]);
  });

  it('lists every problem of a value, each with its place', () => {
    expect(checkSchema('Pet')({ id: 'x', status: 'lost' })).toEqual([
      "/ must have required property 'name'",
      "/ must have required property 'categoryId'",
      '/status must be equal to one of the allowed values',
      '/id must be integer',
    ]);
    expect(checkSchema('Pets')([{ id: 1, name: 'Rex', categoryId: 2 }, 3])).toContain(
      '/1 must be object',
    );
  });

  it('checks int64 values against the int64 range', () => {
    expect(checkSchema('Pet')({ id: 2 ** 63, name: 'Rex', categoryId: 2 })).toEqual([]);
    expect(checkSchema('Pet')({ id: 2 ** 64, name: 'Rex', categoryId: 2 })).toEqual([
      '/id must match format "int64"',
    ]);
  });

  it('refuses a schema name the contract does not have', () => {
    expect(() => checkSchema('Nope')).toThrow('the contract has no schema named Nope');
  });
});
