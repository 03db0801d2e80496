/**
 * --contract on the command line: the built CLI serves a user's copy of the contract, and refuses
 * one it cannot use at start with exit code 2 and the place, as file:line:column.
 */
import { readFileSync } from 'node:fs';
import { defaultContractPath } from '../../src/util/paths.js';
import { killAllClis, runCli, startCli } from '../helpers/process-cli.js';
import { with503 } from '../helpers/reload-files.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

// Processes start slowly on a loaded machine: generous limits, and no assertion on time.
const SLOW = 30_000;
const AUTH = { Authorization: 'Bearer x' };

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(async () => {
  await killAllClis();
  removeTmpDir(dir);
}, SLOW);

describe('--contract FILE', () => {
  it(
    'serves the copy it is given, not the packaged one',
    async () => {
      const copy = writeTmpFile(
        dir,
        'my-contract.yaml',
        with503(readFileSync(defaultContractPath, 'utf8')),
      );
      const cli = await startCli(['--port', '0', '--contract', copy]);
      const res = await fetch(`${cli.url}/pets`, { headers: { ...AUTH, Prefer: 'code=503' } });
      // The packaged contract documents no 503 for listPets (422 not_in_contract).
      expect(res.status).toBe(503);
    },
    SLOW,
  );

  it(
    'refuses an invalid contract at start: exit 2, one line naming file:line:column',
    async () => {
      const text = readFileSync(defaultContractPath, 'utf8').replace(
        "$ref: '#/components/schemas/Pets'",
        "$ref: '#/components/schemas/Nope'",
      );
      const lines = text.split('\n');
      const line = lines.findIndex((written) => written.includes('schemas/Nope'));
      const column = (lines[line] ?? '').indexOf("'#/components") + 1;
      const broken = writeTmpFile(dir, 'broken.yaml', text);
      const exit = await runCli(['--port', '0', '--contract', broken]);
      expect(exit.code).toBe(2);
      const stderr = exit.stderr.split('\n').filter((written) => written.trim() !== '');
      expect(stderr).toEqual([
        `petstore-mock: ${broken}:${String(line + 1)}:${String(column)}: $ref #/components/schemas/Nope points at nothing in the document`,
      ]);
    },
    SLOW,
  );

  it(
    "refuses a file that is not YAML, with the parser's place",
    async () => {
      const broken = writeTmpFile(dir, 'not-yaml.yaml', 'openapi: 3.0.3\ninfo: {title: [x\n');
      const exit = await runCli(['--port', '0', '--contract', broken]);
      expect(exit.code).toBe(2);
      expect(exit.stderr).toMatch(new RegExp(`^petstore-mock: ${broken}:\\d+:\\d+: \\S`));
    },
    SLOW,
  );
});
