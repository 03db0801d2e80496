import { isRecord } from '../util/is-record.js';
import type { PathStep } from '../util/located-file.js';
import { SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES } from './schema-keywords.js';

/** One way a schema of the document is not a JSON Schema, and where. */
export interface SchemaProblem {
  readonly path: readonly PathStep[];
  readonly message: string;
}

const TYPES = new Set(['array', 'boolean', 'integer', 'number', 'null', 'object', 'string']);
const NUMBERS = ['minimum', 'maximum'];
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * The problems of one schema and the schemas inside it, each with where it is: what no JSON
 * Schema validator can compile (a `type` no draft has, `required` that is not a list of names,
 * bounds that are not numbers, subschemas that are not schemas). References are not followed:
 * each schema is checked where it is written.
 */
function checkSchema(node: unknown, path: readonly PathStep[], problems: SchemaProblem[]): void {
  if (typeof node === 'boolean') return;
  if (!isRecord(node)) {
    problems.push({ path, message: 'a schema must be a mapping' });
    return;
  }
  if (typeof node.$ref === 'string') return;
  const problem = (key: string, message: string): void => {
    problems.push({ path: [...path, key], message });
  };
  const { type, required, enum: values } = node;
  const types: unknown[] = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (!types.every((t) => typeof t === 'string' && TYPES.has(t))) {
    problem('type', `type must be one of ${[...TYPES].join(', ')} (or a list of them)`);
  }
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((r) => typeof r === 'string'))
  ) {
    problem('required', 'required must be a list of property names');
  }
  if (values !== undefined && !Array.isArray(values)) problem('enum', 'enum must be a list');
  for (const key of NUMBERS) {
    if (node[key] !== undefined && typeof node[key] !== 'number')
      problem(key, `${key} must be a number`);
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum']) {
    const bound = node[key];
    if (bound !== undefined && typeof bound !== 'number' && typeof bound !== 'boolean') {
      problem(key, `${key} must be a number (3.1) or a boolean (3.0)`);
    }
  }
  for (const key of COUNTS) {
    if (node[key] !== undefined && !isCount(node[key])) {
      problem(key, `${key} must be a whole number, 0 or more`);
    }
  }
  const step = node.multipleOf;
  if (step !== undefined && !(typeof step === 'number' && step > 0)) {
    problem('multipleOf', 'multipleOf must be a number above 0');
  }
  if (node.pattern !== undefined && typeof node.pattern !== 'string') {
    problem('pattern', 'pattern must be a regular expression, as text');
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (map === undefined) continue;
    if (!isRecord(map)) {
      problem(key, `${key} must be a mapping of names to schemas`);
      continue;
    }
    for (const [name, child] of Object.entries(map))
      checkSchema(child, [...path, key, name], problems);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) {
      problem(key, `${key} must be a non-empty list of schemas`);
      continue;
    }
    const members: unknown[] = list;
    members.forEach((child, i) => {
      checkSchema(child, [...path, key, i], problems);
    });
  }
  for (const key of SCHEMA_VALUES) {
    const child = node[key];
    if (child === undefined) continue;
    if (key === 'items' && Array.isArray(child)) {
      const members: unknown[] = child;
      members.forEach((item, i) => {
        checkSchema(item, [...path, key, i], problems);
      });
    } else {
      checkSchema(child, [...path, key], problems);
    }
  }
}

/** Where a document writes schemas: `schema` of parameters, headers and media types, and components. */
function* schemasOf(
  value: unknown,
  path: PathStep[],
): Generator<{ schema: unknown; path: PathStep[] }> {
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    for (const [i, item] of items.entries()) yield* schemasOf(item, [...path, i]);
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, child] of Object.entries(value)) {
    // Examples are data: what they hold is not a document's structure.
    if (key === 'example' || key === 'examples' || key === 'default' || key.startsWith('x-')) {
      continue;
    }
    if (key === 'schema') yield { schema: child, path: [...path, key] };
    else if (
      key === 'schemas' &&
      path.length === 1 &&
      path[0] === 'components' &&
      isRecord(child)
    ) {
      for (const [name, schema] of Object.entries(child)) {
        yield { schema, path: [...path, key, name] };
      }
    } else yield* schemasOf(child, [...path, key]);
  }
}

/**
 * The problems of every schema a document writes (components, and those of parameters, headers
 * and media types), each at its place: what no validator could compile, found at start in
 * milliseconds where compiling each schema would take seconds on a large contract.
 */
export function checkSchemas(document: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const { schema, path } of schemasOf(document, [])) {
    const found: SchemaProblem[] = [];
    checkSchema(schema, path, found);
    // A component's problem names it: `schema Pet: type must be…`.
    const [, kind, name] = path;
    const prefix = path[0] === 'components' && kind === 'schemas' ? `schema ${String(name)}: ` : '';
    problems.push(
      ...found.map((problem) => ({ ...problem, message: `${prefix}${problem.message}` })),
    );
  }
  return problems;
}
