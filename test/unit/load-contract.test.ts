import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadContract, loadContractOnDemand } from '../../src/contract/load-contract.js';
import { adminContractPath, defaultContractPath } from '../../src/paths.js';
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

describe('loadContractOnDemand', () => {
  it('reads nothing until the contract is used', () => {
    const path = join(dir, 'admin-openapi.yaml');
    const contract = loadContractOnDemand(path);
    expect(contract.path).toBe(path);
    // Written only now: had the file been read above, there would have been nothing to read.
    writeTmpFile(dir, 'admin-openapi.yaml', readFileSync(adminContractPath, 'utf8'));
    expect(contract.document).toEqual(loadContract(adminContractPath).document);
  });

  it('reads the file once, on first use', () => {
    const path = writeTmpFile(dir, 'openapi.yaml', readFileSync(defaultContractPath, 'utf8'));
    const contract = loadContractOnDemand(path);
    const document = contract.document;
    rmSync(path);
    expect(contract.document).toBe(document);
    expect(contract.operations.byId('getPet')?.pathTemplate).toBe('/v1/pets/{petId}');
    expect(contract.checkSchema('Error')({ code: 'x', message: 'y', status: 400 })).toEqual([]);
  });

  it('fails on first use, with the message of loadContract, when the file is unusable', () => {
    const path = join(dir, 'missing.yaml');
    const contract = loadContractOnDemand(path);
    expect(() => contract.operations).toThrow(`cannot read the contract ${path}: `);
  });
});
