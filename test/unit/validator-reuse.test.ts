import { copyFileSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createContractValidator } from '../../src/http/contract-validator.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { keptContract } from '../../src/server/kept-contracts.js';
import { startServer, type StartedServer } from '../../src/server/start-server.js';
import { configFromOptions } from '../../src/config/load-config.js';
import { createLogger } from '../../src/util/logger.js';
import { defaultContractPath } from '../../src/util/paths.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

// Issue 31, item 5: the validator is built once per contract in a process.

let dir: string;
let contractPath: string;

beforeEach(() => {
  dir = makeTmpDir();
  contractPath = join(dir, 'openapi.yaml');
  copyFileSync(defaultContractPath, contractPath);
  mkdirSync(join(dir, 'scenarios'));
});

afterEach(() => {
  removeTmpDir(dir);
});

describe('createContractValidator', () => {
  const { validatorDocument } = loadContract(defaultContractPath);

  it('gives every app over the same document the same validator', () => {
    expect(createContractValidator(validatorDocument)).toBe(
      createContractValidator(validatorDocument),
    );
  });

  it('shares the validator between apps that hear breaches, each with its own listener', () => {
    const [firstListener, ...first] = createContractValidator(validatorDocument, {
      onAnswerBreach: () => true,
    });
    const [secondListener, ...second] = createContractValidator(validatorDocument, {
      onAnswerBreach: () => false,
    });
    expect(second).toEqual(first);
    expect(second[0]).toBe(first[0]);
    expect(secondListener).not.toBe(firstListener);
  });

  it('builds a new validator for another document', () => {
    const other = loadContract(defaultContractPath).validatorDocument;
    expect(createContractValidator(other)).not.toBe(createContractValidator(validatorDocument));
  });
});

describe('keptContract', () => {
  it('reuses a contract whose files are unchanged, and reads an edited one again', () => {
    const first = keptContract(contractPath, { checked: true });
    expect(keptContract(contractPath, { checked: true }).contract).toBe(first.contract);
    appendFileSync(contractPath, '\nx-edited: true\n');
    const edited = keptContract(contractPath, { checked: true });
    expect(edited.contract).not.toBe(first.contract);
    expect(edited.digest).not.toBe(first.digest);
  });

  it('still refuses an edit that breaks the contract', () => {
    keptContract(contractPath, { checked: true });
    writeFileSync(contractPath, 'openapi: 3.0.3\ninfo: {}\n');
    expect(() => keptContract(contractPath, { checked: true })).toThrow(/info/);
  });
});

describe('an in-process server', () => {
  let servers: StartedServer[] = [];

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  async function start(): Promise<StartedServer> {
    const config = configFromOptions({
      port: 0,
      logLevel: 'silent',
      contract: contractPath,
      scenariosDir: join(dir, 'scenarios'),
    });
    const server = await startServer(config, createLogger('silent', false));
    servers.push(server);
    return server;
  }

  it('started twice on the same files serves the same contract', async () => {
    const first = await start();
    const second = await start();
    expect(second.definition().contract).toBe(first.definition().contract);
    expect(second.deps.adminContract).toBe(first.deps.adminContract);
  });

  it('keeps its contract across a reload that changed a scenario, not one that changed it', async () => {
    const server = await start();
    const before = server.definition().contract;
    writeFileSync(
      join(dir, 'scenarios', 'new.yaml'),
      'description: new\nrules:\n  - operations: listPets\n    status: 401\n',
    );
    expect((await server.reload()).changed).toEqual(['scenarios']);
    expect(server.definition().contract).toBe(before);
    appendFileSync(contractPath, '\nx-edited: true\n');
    expect((await server.reload()).changed).toEqual(['contract']);
    expect(server.definition().contract).not.toBe(before);
  });
});
