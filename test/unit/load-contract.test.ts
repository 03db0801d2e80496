import { join } from 'node:path';
import { loadContract } from '../../src/contract/load-contract.js';
import { defaultContractPath } from '../../src/util/paths.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(() => {
  removeTmpDir(dir);
});

describe('loadContract', () => {
  it('reads and indexes the shipped contract', () => {
    const contract = loadContract(defaultContractPath);
    expect(contract.path).toBe(defaultContractPath);
    expect(contract.operations.byId('listPets')?.method).toBe('GET');
    expect(contract.checkSchema('Pet')({ id: 1, name: 'Rex', categoryId: 2 })).toEqual([]);
  });

  it('names a file it cannot read', () => {
    const path = join(dir, 'missing.yaml');
    expect(() => loadContract(path)).toThrow(`cannot read the contract ${path}: `);
  });

  it('refuses a document that is not OpenAPI 3.0', () => {
    const path = writeTmpFile(dir, 'v31.yaml', 'openapi: 3.1.0\ninfo: {}\npaths: {}\n');
    expect(() => loadContract(path)).toThrow(`${path} is not an OpenAPI 3.0 document`);
  });
});
