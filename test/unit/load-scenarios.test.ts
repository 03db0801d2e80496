import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../src/contract/load-contract.js';
import { defaultScenariosDir } from '../../src/util/paths.js';
import { ScenarioError, loadScenarios, parseScenario } from '../../src/contract/load-scenarios.js';
import { ruleFor } from '../../src/contract/scenario.js';
import { contract } from '../helpers/test-app.js';

const SOURCE = 'scenarios/x.yaml';

/** The ScenarioError a file is refused with. */
function refusal(yaml: string, source = SOURCE): ScenarioError {
  try {
    parseScenario(yaml, source, contract);
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error(`accepted:\n${yaml}`);
}

/** A scenario file whose second rule is `rule` (the first is a valid one). */
function withSecondRule(rule: string): string {
  return ['rules:', '  - operations: getPet', '    status: 404', rule].join('\n');
}

describe('parseScenario: refusing bad scenario files', () => {
  it('accepts a valid file and names it after the file', () => {
    const scenario = parseScenario(
      withSecondRule('  - operations: listPets\n    delay: 5'),
      SOURCE,
      contract,
    );
    expect(scenario.name).toBe('x');
    expect(scenario.source).toBe(SOURCE);
    expect(scenario.rules).toHaveLength(2);
    expect(ruleFor(scenario, 'listPets')?.delay).toEqual({ fixed: 5 });
  });

  it.each([
    [
      'an unknown operation',
      '  - operations: deletePet\n    status: 404',
      /unknown operation "deletePet"/,
    ],
    [
      'an unknown operation in a list',
      '  - operations: [listPets, getPets]\n    delay: 1',
      /unknown operation "getPets"/,
    ],
    ['404 on listPets', '  - operations: listPets\n    status: 404', /404.*listPets.*200, 401/],
    ['201 on getPet', '  - operations: getPet\n    status: 201', /201.*getPet/],
    // `all` with a status is every operation documenting it: none documents a 500.
    [
      '500 on all operations',
      '  - operations: all\n    status: 500',
      /500 is not documented for any/,
    ],
    ['500 on createPet', '  - operations: createPet\n    status: 500', /500.*createPet/],
    [
      'both a fault and a status',
      '  - operations: getPet\n    fault: reset\n    status: 404',
      /fault or a status/,
    ],
    ['an unknown key (typo)', '  - operations: getPet\n    stauts: 404', /unknown key "stauts"/],
    ['a negative delay', '  - operations: getPet\n    delay: -1', /delay/],
    [
      'a delay with min > max',
      '  - operations: getPet\n    delay: { min: 500, max: 100 }',
      /delay/,
    ],
    ['a delay over 60000 ms', '  - operations: getPet\n    delay: 60001', /delay/],
    [
      'a delay range over 60000 ms',
      '  - operations: getPet\n    delay: { min: 0, max: 70000 }',
      /delay/,
    ],
    ['a non-integer delay', '  - operations: getPet\n    delay: 1.5', /delay/],
    ['a fault "explode"', '  - operations: getPet\n    fault: explode', /fault/],
    [
      'a body with a 404',
      '  - operations: getPet\n    status: 404\n    body: { id: 1 }',
      /body needs a success status/,
    ],
    [
      'a body with no status',
      '  - operations: listPets\n    body: []',
      /body needs a success status/,
    ],
    [
      'a success body breaking the schema',
      '  - operations: listPets\n    status: 200\n    body: [{ id: "x" }]',
      /body does not match/,
    ],
    [
      'a code without a 4xx status',
      '  - operations: listPets\n    status: 200\n    code: oops',
      /code needs an error status/,
    ],
    [
      'a message without a status',
      '  - operations: listPets\n    delay: 10\n    message: slow',
      /message needs an error status/,
    ],
    [
      'an empty code',
      '  - operations: getPet\n    status: 404\n    code: ""',
      /code must be a non-empty string/,
    ],
    ['a rule that does nothing', '  - operations: getPet', /needs a status, a delay or a fault/],
    ['no operations', '  - status: 401', /operations must be/],
    ['a rule that is not a mapping', '  - just a string', /rule must be a mapping/],
    [
      'a status that is not a number',
      '  - operations: getPet\n    status: "404"',
      /status must be/,
    ],
  ])('refuses %s, naming the file and rule 2', (_what, rule, reason) => {
    const error = refusal(withSecondRule(rule));
    expect(error.message).toContain(SOURCE);
    expect(error.message).toContain('rule 2');
    expect(error.message).toMatch(reason);
  });

  it.each([
    ['empty rules', 'rules: []', /rules must be a non-empty list/],
    ['no rules', 'description: nothing', /rules must be a non-empty list/],
    ['bad YAML', 'rules: [\n  - operations: getPet\n  status: : 404', /not YAML/],
    ['a list instead of a mapping', '- operations: getPet', /expected a mapping/],
    [
      'an uppercase name',
      'name: NotFound\nrules:\n  - operations: getPet\n    status: 404',
      /name must be lowercase/,
    ],
    [
      'a name with spaces',
      'name: not found\nrules:\n  - operations: getPet\n    status: 404',
      /name must be lowercase/,
    ],
    [
      'an unknown top-level key',
      'nmae: x\nrules:\n  - operations: getPet\n    status: 404',
      /unknown key "nmae"/,
    ],
  ])('refuses %s, naming the file', (_what, yaml, reason) => {
    const error = refusal(yaml);
    expect(error.message).toContain(SOURCE);
    expect(error.message).toMatch(reason);
  });

  it('refuses a file named in uppercase when it gives no name', () => {
    const error = refusal(
      'rules:\n  - operations: getPet\n    status: 404',
      'scenarios/NotFound.yaml',
    );
    expect(error.message).toContain('scenarios/NotFound.yaml');
  });

  it('lists the operations the contract has when one is unknown', () => {
    const error = refusal('rules:\n  - operations: deletePet\n    status: 404');
    expect(error.message).toContain('rule 1');
    expect(error.message).toMatch(/listPets.*createPet.*getPet|listPets, createPet, getPet/);
  });

  it('accepts code and message on a 4xx and keeps them', () => {
    const scenario = parseScenario(
      'name: gone\ndescription: d\nrules:\n  - operations: [getPet]\n    status: 404\n    code: gone\n    message: Gone away.',
      SOURCE,
      contract,
    );
    expect(scenario).toMatchObject({ name: 'gone', description: 'd' });
    expect(scenario.rules[0]).toEqual({
      operations: ['getPet'],
      status: 404,
      code: 'gone',
      message: 'Gone away.',
    });
  });

  it('accepts a delay range and a 401 on all operations', () => {
    const scenario = parseScenario(
      'rules:\n  - operations: all\n    delay: { min: 10, max: 20 }\n    status: 401',
      SOURCE,
      contract,
    );
    expect(scenario.rules[0]).toEqual({
      operations: 'all',
      delay: { min: 10, max: 20 },
      status: 401,
    });
  });

  it('takes `all` with a status as every operation that documents it', () => {
    const scenario = parseScenario(
      'rules:\n  - operations: all\n    status: 404',
      SOURCE,
      contract,
    );
    expect(scenario.rules[0]).toEqual({ operations: ['getPet'], status: 404 });
  });

  it('takes an operation by its method and path template as by its operationId', () => {
    const scenario = parseScenario(
      'rules:\n  - operations: get /pets/{petId}\n    status: 404',
      SOURCE,
      contract,
    );
    expect(scenario.rules[0]).toEqual({ operations: ['getPet'], status: 404 });
  });
});

describe('loadScenarios', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-mock-scenarios-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function refusalOfDir(): ScenarioError {
    try {
      loadScenarios(dir, contract);
    } catch (error) {
      if (error instanceof ScenarioError) return error;
      throw error;
    }
    throw new Error('the folder was accepted');
  }

  it('loads every *.yaml and *.yml file of a folder, ignoring others', () => {
    writeFileSync(join(dir, 'a.yaml'), 'rules:\n  - operations: getPet\n    status: 404');
    writeFileSync(join(dir, 'b.yml'), 'rules:\n  - operations: listPets\n    delay: 1');
    writeFileSync(join(dir, 'notes.txt'), 'not a scenario');
    const scenarios = loadScenarios(dir, contract);
    expect([...scenarios.keys()].sort()).toEqual(['a', 'b']);
    expect(scenarios.get('a')?.source).toBe(join(dir, 'a.yaml'));
  });

  it('refuses a bad file with a message naming the file and the rule', () => {
    writeFileSync(join(dir, 'good.yaml'), 'rules:\n  - operations: getPet\n    status: 404');
    writeFileSync(
      join(dir, 'bad.yaml'),
      'rules:\n  - operations: getPet\n    status: 404\n  - operations: listPets\n    status: 404',
    );
    const error = refusalOfDir();
    expect(error.message).toContain(join(dir, 'bad.yaml'));
    expect(error.message).toContain('rule 2');
    expect(error.message).toMatch(/404/);
  });

  it('refuses two files with the same name, naming both', () => {
    writeFileSync(
      join(dir, 'one.yaml'),
      'name: twin\nrules:\n  - operations: getPet\n    status: 404',
    );
    writeFileSync(
      join(dir, 'two.yaml'),
      'name: twin\nrules:\n  - operations: getPet\n    status: 401',
    );
    const error = refusalOfDir();
    expect(error.message).toContain('"twin"');
    expect(error.message).toContain(join(dir, 'one.yaml'));
    expect(error.message).toContain(join(dir, 'two.yaml'));
  });

  it('refuses a folder that does not exist', () => {
    const missing = join(dir, 'missing');
    expect(() => loadScenarios(missing, contract)).toThrow(ScenarioError);
    expect(() => loadScenarios(missing, contract)).toThrow(missing);
  });

  it('loads an empty folder as no scenarios', () => {
    expect(loadScenarios(dir, contract).size).toBe(0);
  });
});

describe('the shipped scenarios', () => {
  const shipped = loadScenarios(defaultScenariosDir, contract, { builtIn: true });

  it('all load, one per file, named after their file, but server-error (the Pet Store documents no 5xx)', () => {
    const files = readdirSync(defaultScenariosDir).filter((file) => file.endsWith('.yaml'));
    expect([...shipped.keys()].sort()).toEqual(
      files
        .map((file) => file.replace(/\.yaml$/, ''))
        .filter((name) => name !== 'server-error')
        .sort(),
    );
    for (const name of [
      'unauthorized',
      'not-found',
      'invalid-request',
      'empty-catalogue',
      'slow',
      'connection-reset',
      'connection-closed',
      'timeout',
      'flaky',
    ]) {
      expect(shipped.get(name)?.description).toMatch(/\S/);
    }
  });

  it('say what they do', () => {
    const rule = (name: string, operationId: string) => {
      const scenario = shipped.get(name);
      if (!scenario) throw new Error(`no scenario ${name}`);
      return ruleFor(scenario, operationId);
    };
    for (const op of ['listPets', 'createPet', 'getPet']) {
      expect(rule('unauthorized', op)?.status).toBe(401);
      expect(rule('connection-reset', op)?.fault).toBe('reset');
      expect(rule('connection-closed', op)?.fault).toBe('close');
      expect(rule('timeout', op)?.delay).toEqual({ fixed: 30000 });
      expect(rule('slow', op)?.delay).toEqual({ min: 800, max: 1500 });
    }
    expect(rule('not-found', 'getPet')?.status).toBe(404);
    expect(rule('not-found', 'listPets')).toBeUndefined();
    expect(rule('invalid-request', 'createPet')?.status).toBe(400);
    expect(rule('invalid-request', 'getPet')).toBeUndefined();
    expect(rule('empty-catalogue', 'listPets')).toMatchObject({ status: 200, body: [] });
    expect(rule('empty-catalogue', 'createPet')).toBeUndefined();
  });
});

describe('parseScenario: a forced body is checked as answers are', () => {
  it('refuses a body against an inline answer schema (not a named component), naming the place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-scenario-contract-'));
    try {
      const path = join(dir, 'openapi.yaml');
      writeFileSync(
        path,
        [
          'openapi: 3.0.3',
          'info: { title: t, version: "1" }',
          'servers: [{ url: /v1 }]',
          'paths:',
          '  /counts:',
          '    get:',
          '      operationId: listCounts',
          '      responses:',
          "        '200':",
          '          description: counts',
          '          content:',
          '            application/json:',
          '              schema: { type: array, items: { type: integer } }',
          '',
        ].join('\n'),
      );
      const own = loadContract(path);
      const scenario = (body: string): string =>
        `rules:\n  - operations: listCounts\n    status: 200\n    body: ${body}\n`;
      expect(() => parseScenario(scenario('[1, 2]'), 'ok.yaml', own)).not.toThrow();
      expect(() => parseScenario(scenario('["x"]'), 'bad.yaml', own)).toThrow(
        'body does not match the 200 answer of listCounts: /response/0 must be integer',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
