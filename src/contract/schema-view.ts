import { isRecord } from '../util/is-record.js';
import { followRefs } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-document.js';

/**
 * What resource inference reads of a schema: its types, its properties and what it requires,
 * through its `$ref`s and compositions. Made once per schema object of a document (a WeakMap),
 * so a walk over a large contract stays linear.
 */
export interface SchemaView {
  /** The component a schema written as a `$ref` names (`components/schemas/Pet`), else undefined. */
  readonly identity: string | undefined;
  /** The types it and its allOf members declare (`null` left out); empty: any type. */
  readonly types: ReadonlySet<string>;
  /** Its properties, each with every schema that declares it, through allOf, oneOf and anyOf. */
  readonly properties: ReadonlyMap<string, readonly unknown[]>;
  /** What it and its allOf members require. */
  readonly required: ReadonlySet<string>;
  /** The schema of its items, where it is an array. */
  readonly items: unknown;
  readonly format: string | undefined;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly default: unknown;
}

/** The views of one document's schemas, and the comparisons inference makes with them. */
export interface SchemaViews {
  view(schema: unknown): SchemaView;
  /** Whether a schema is an object: typed so, or with properties. */
  isObject(schema: unknown): boolean;
  /** Whether a schema is an array: typed so, or with items. */
  isArray(schema: unknown): boolean;
  /** Whether a schema is a string, number, integer or boolean (or says no type). */
  isScalar(schema: unknown): boolean;
  /**
   * Whether two schemas describe the same item: they name the same component, or (where one
   * is written inline, or two components are alike) they have the same properties of the same
   * types. An allOf of one reference is the same as what it names.
   */
  same(a: unknown, b: unknown): boolean;
  /**
   * The properties of `part` when it is an object whose every property is one of `whole`'s
   * (`NewPet` of `Pet = allOf[NewPet, {id}]`, an answer `{"id": …}`); undefined otherwise.
   */
  partOf(part: unknown, whole: unknown): readonly string[] | undefined;
}

const EMPTY: SchemaView = {
  identity: undefined,
  types: new Set(),
  properties: new Map(),
  required: new Set(),
  items: undefined,
  format: undefined,
  readOnly: false,
  writeOnly: false,
  minimum: undefined,
  maximum: undefined,
  default: undefined,
};

const SCALARS: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean']);

function declaredTypes(schema: Record<string, unknown>): string[] {
  const { type } = schema;
  const listed = Array.isArray(type) ? type : [type];
  return listed.filter((t): t is string => typeof t === 'string' && t !== 'null');
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** Creates the views of a document's schemas; each is made on first use and kept. */
export function createSchemaViews(document: OpenApiDocument): SchemaViews {
  const views = new WeakMap<object, SchemaView>();
  const fingerprints = new WeakMap<SchemaView, string>();
  const targets = new Map<string, ReturnType<typeof followRefs>>();

  /** What a schema is once its `$ref` chain is followed (each reference followed once). */
  function targetOf(node: unknown): ReturnType<typeof followRefs> {
    if (!isRecord(node) || typeof node.$ref !== 'string') return { value: node, steps: [] };
    const ref = node.$ref;
    if (!targets.has(ref)) targets.set(ref, followRefs(document, node));
    return targets.get(ref);
  }

  /** The schemas a schema is made of, each once: itself, then what its compositions reach. */
  function partsOf(schema: unknown): { part: Record<string, unknown>; all: boolean }[] {
    const parts: { part: Record<string, unknown>; all: boolean }[] = [];
    const seen = new Set<unknown>();
    const visit = (node: unknown, all: boolean): void => {
      const target = targetOf(node)?.value;
      if (!isRecord(target) || seen.has(target)) return;
      seen.add(target);
      parts.push({ part: target, all });
      for (const kind of ['allOf', 'oneOf', 'anyOf']) {
        const members = target[kind];
        // What every member of an allOf says holds; a oneOf or anyOf branch only may.
        if (Array.isArray(members)) for (const m of members) visit(m, all && kind === 'allOf');
      }
    };
    visit(schema, true);
    return parts;
  }

  /** The view of a schema that is no reference. */
  function build(schema: Record<string, unknown>): SchemaView {
    const types = new Set<string>();
    const properties = new Map<string, unknown[]>();
    const required = new Set<string>();
    let items: unknown;
    let format: string | undefined;
    let readOnly = false;
    let writeOnly = false;
    let minimum: number | undefined;
    let maximum: number | undefined;
    let fallback: unknown;
    for (const { part, all } of partsOf(schema)) {
      if (all) {
        for (const type of declaredTypes(part)) types.add(type);
        if (Array.isArray(part.required)) {
          for (const name of part.required) if (typeof name === 'string') required.add(name);
        }
        format ??= typeof part.format === 'string' ? part.format : undefined;
        readOnly ||= part.readOnly === true;
        writeOnly ||= part.writeOnly === true;
        minimum ??= numberOr(part.minimum);
        maximum ??= numberOr(part.maximum);
        fallback ??= part.default;
      }
      items ??= part.items;
      if (isRecord(part.properties)) {
        for (const [name, property] of Object.entries(part.properties)) {
          const declared = properties.get(name);
          if (declared) declared.push(property);
          else properties.set(name, [property]);
        }
      }
    }
    return {
      identity: undefined,
      types,
      properties,
      required,
      items,
      format,
      readOnly,
      writeOnly,
      minimum,
      maximum,
      default: fallback,
    };
  }

  function view(schema: unknown): SchemaView {
    if (!isRecord(schema)) return EMPTY;
    let found = views.get(schema);
    if (!found) {
      // A reference is seen as what it names (built once for all references to it), with a name.
      const located = typeof schema.$ref === 'string' ? targetOf(schema) : undefined;
      found =
        located === undefined
          ? build(schema)
          : isRecord(located.value) && typeof located.value.$ref !== 'string'
            ? { ...view(located.value), identity: located.steps.join('/') }
            : EMPTY;
      views.set(schema, found);
    }
    return found;
  }

  const isObject = (schema: unknown): boolean => {
    const v = view(schema);
    return v.types.has('object') || (v.types.size === 0 && v.properties.size > 0);
  };
  const isArray = (schema: unknown): boolean => {
    const v = view(schema);
    return v.types.has('array') || (v.types.size === 0 && v.items !== undefined);
  };
  const isScalar = (schema: unknown): boolean => {
    const v = view(schema);
    if (v.types.size === 0) return v.properties.size === 0 && v.items === undefined;
    return [...v.types].every((type) => SCALARS.has(type));
  };

  /** Its properties and their types, in one string: what two schemas alike share. */
  function fingerprintOf(v: SchemaView): string {
    let found = fingerprints.get(v);
    if (found === undefined) {
      found = [...v.properties]
        .map(([name, schemas]) => `${name}:${[...view(schemas[0]).types].sort().join('|')}`)
        .sort()
        .join(',');
      fingerprints.set(v, found);
    }
    return found;
  }

  const same = (a: unknown, b: unknown): boolean => {
    const va = view(a);
    const vb = view(b);
    if (va === EMPTY || vb === EMPTY) return false;
    if (va === vb || (va.identity !== undefined && va.identity === vb.identity)) return true;
    if (va.properties.size === 0 || vb.properties.size === 0) return false;
    return fingerprintOf(va) === fingerprintOf(vb);
  };

  const partOf = (part: unknown, whole: unknown): readonly string[] | undefined => {
    if (!isObject(part)) return undefined;
    const names = [...view(part).properties.keys()];
    const own = view(whole).properties;
    return names.every((name) => own.has(name)) ? names : undefined;
  };

  return { view, isObject, isArray, isScalar, same, partOf };
}
