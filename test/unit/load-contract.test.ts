import { join } from 'node:path';
import { loadContract } from '../../src/contract/load-contract.js';
import { FileError } from '../../src/util/located-file.js';
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
    expect(contract.operations.byName('listPets')?.method).toBe('GET');
    expect(contract.checkSchema('Pet')({ id: 1, name: 'Rex', categoryId: 2 })).toEqual([]);
  });

  it('names a file it cannot read', () => {
    const path = join(dir, 'missing.yaml');
    expect(() => loadContract(path)).toThrow(`${path}: cannot read the contract: `);
  });

  it('reads an OpenAPI 3.1 document as well as a 3.0 one', () => {
    const path = writeTmpFile(
      dir,
      'v31.yaml',
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n',
    );
    expect(loadContract(path, { checked: true }).operations.operations).toEqual([]);
  });
});

/** The FileError a user's contract is refused with. */
function refusal(name: string, text: string): FileError {
  const path = writeTmpFile(dir, name, text);
  try {
    loadContract(path, { checked: true });
  } catch (error) {
    if (error instanceof FileError) return error;
    throw error;
  }
  throw new Error('the contract was not refused');
}

const HEAD = 'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\n';

describe("loadContract, checked (a user's contract): the first problem, with its line and column", () => {
  it.each([
    ['not YAML', 'openapi: 3.0.3\ninfo: [\n', 'Flow sequence', 3],
    ['not OpenAPI', 'swagger: "2.0"\ninfo: {}\n', 'not an OpenAPI 3.0 or 3.1 document', 1],
    ['another version', 'openapi: 2.5.0\n', 'openapi is "2.5.0"', 1],
    [
      'no info title',
      'openapi: 3.0.3\ninfo:\n  version: "1"\npaths: {}\n',
      'info needs a title',
      3,
    ],
    ['no paths', HEAD, 'paths must be a mapping', 1],
    [
      'an operation without responses',
      `${HEAD}paths:\n  /pets:\n    get:\n      operationId: listPets\n`,
      'needs its responses',
      8,
    ],
    [
      'a status that is not one',
      `${HEAD}paths:\n  /pets:\n    get:\n      responses:\n        "20": { description: ok }\n`,
      '"20" is not a status code',
      9,
    ],
    [
      'a $ref to nothing',
      `${HEAD}paths:\n  /pets:\n    get:\n      responses:\n        "200":\n          $ref: '#/components/responses/Nope'\n`,
      'points at nothing',
      10,
    ],
    [
      'two operations with one id',
      `${HEAD}paths:\n  /a:\n    get:\n      operationId: same\n      responses: { "200": { description: ok } }\n  /b:\n    get:\n      operationId: same\n      responses: { "200": { description: ok } }\n`,
      'operationId same is also the id of',
      12,
    ],
    [
      'a schema that is not one',
      `${HEAD}paths: {}\ncomponents:\n  schemas:\n    Pet:\n      type: strin\n`,
      'schema Pet: type must be one of',
      9,
    ],
  ])('%s', (_what, text, reason, line) => {
    const error = refusal('contract.yaml', text);
    expect(error.message).toContain(reason);
    expect(error.position?.line).toBe(line);
    expect(error.message).toMatch(new RegExp(`contract\\.yaml:${line}:\\d+: `));
  });
});
