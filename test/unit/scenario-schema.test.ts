import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { isRecord } from '../../src/util/is-record.js';
import { packageRoot } from '../../src/util/paths.js';
import { FileError } from '../../src/util/located-file.js';
import { parseScenario } from '../../src/contract/load-scenarios.js';
import { scenarioFileSchema } from '../../src/contract/scenario-schema.js';
import { RULE_KINDS } from '../../src/contract/rule-kinds/all-kinds.js';
import { contract } from '../helpers/test-app.js';

const SCHEMA_PATH = join(packageRoot, 'scenario.schema.json');
const published: unknown = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));

/** The YAML files of a folder, with their paths from the package root. */
function yamlFiles(dir: string): string[] {
  return readdirSync(join(packageRoot, dir))
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => join(dir, file));
}

/** The scenario files the package ships, the docs show and the tests load (not the contracts beside them). */
const SCENARIO_FILES = [
  ...yamlFiles('scenarios'),
  ...yamlFiles('examples/scenarios'),
  ...yamlFiles('test/fixtures/own/operations/scenarios'),
];

/** The YAML blocks of the docs that are scenarios (a mapping with `rules`). */
function docsScenarios(): [string, string][] {
  const docs = readdirSync(join(packageRoot, 'docs')).filter((file) => file.endsWith('.md'));
  return docs.flatMap((file) =>
    [...readFileSync(join(packageRoot, 'docs', file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((match) => match[1] ?? '')
      .filter((text) => /^rules:/m.test(text))
      .map((text, index): [string, string] => [`docs/${file} block ${index + 1}`, text]),
  );
}

function ruleProperties(schema: unknown): string[] {
  if (!isRecord(schema) || !isRecord(schema.$defs) || !isRecord(schema.$defs.rule)) return [];
  const { properties } = schema.$defs.rule;
  return isRecord(properties) ? Object.keys(properties) : [];
}

/** The refusal of a scenario file, as a FileError. */
function refusal(text: string): FileError {
  try {
    parseScenario(text, 'scenarios/x.yaml', contract);
  } catch (error) {
    if (error instanceof FileError) return error;
    throw error;
  }
  throw new Error(`accepted:\n${text}`);
}

describe('the scenario file schema', () => {
  it('is the one the rule kinds make (npm run scenarios:schema writes it)', () => {
    expect(published).toEqual(scenarioFileSchema());
  });

  it('has every key of every rule kind, and no key of no kind but the match keys', () => {
    const kindKeys = RULE_KINDS.flatMap((kind) => Object.keys(kind.keys));
    expect(ruleProperties(published).sort()).toEqual(['chance', 'operations', ...kindKeys].sort());
    for (const kind of RULE_KINDS) expect(Object.keys(kind.keys)).toContain(kind.name);
  });

  it('is published with the package, where the docs point editors', () => {
    const pkg: unknown = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    const published = relative(packageRoot, SCHEMA_PATH);
    expect(isRecord(pkg) && Array.isArray(pkg.files) && pkg.files).toContain(published);
    const docs = readFileSync(join(packageRoot, 'docs', 'scenarios.md'), 'utf8');
    const hint = /^# yaml-language-server: \$schema=(\S+)$/m.exec(docs)?.[1];
    expect(hint).toBe(`../node_modules/${isRecord(pkg) ? String(pkg.name) : ''}/${published}`);
  });

  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
    isRecord(published) ? published : {},
  );

  it.each([
    ...SCENARIO_FILES.map((file) => [file, readFileSync(join(packageRoot, file), 'utf8')]),
    ...docsScenarios(),
  ])('accepts %s', (_where, text) => {
    validate(parse(text));
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each([
    ['a rule that is no mapping', 'rules: [oops]', { line: 1, column: 9 }],
    [
      'a status that is no number',
      'rules:\n  - operations: getPet\n    status: "404"',
      { line: 3, column: 13 },
    ],
    [
      'a delay out of range',
      'rules:\n  - operations: getPet\n    delay: -1',
      { line: 3, column: 12 },
    ],
    ['an unknown key', 'rules:\n  - operations: getPet\n    stauts: 404', { line: 3, column: 13 }],
    ['no operations', 'rules:\n  - status: 401', { line: 2, column: 5 }],
  ])('the loader refuses with it %s, at the value written', (_what, text, position) => {
    expect(refusal(text).position).toEqual(position);
  });

  it('refuses what the schema refuses in the loader words, with every unknown key', () => {
    expect(refusal('rules:\n  - operations: getPet\n    stauts: 404\n    delya: 1').reason).toBe(
      'rule 1: unknown key "stauts", "delya"',
    );
    expect(refusal('rules:\n  - operations: [getPet, 7]\n    status: 404').reason).toBe(
      'rule 1: operations must be "all", an operation (operationId, or "GET /path") or a list of them',
    );
  });
});
