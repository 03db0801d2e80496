import type { Faker } from '@faker-js/faker';
import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { stringFromPattern, UnsupportedPatternError } from './pattern-string.js';
import {
  copyMerged,
  mergeInto,
  mergeSchemas,
  stableKey,
  stricter,
  typeAllows,
  type Choice,
  type JsonType,
  type Merged,
} from './schema-merge.js';
import { SchemaError, derefSchema } from './schema-refs.js';

/** Whether a value satisfies a schema of the document, as the contract's validator judges answers. */
export type SchemaMatch = (schema: unknown, value: unknown) => boolean;

/**
 * Optional properties, additional entries and more than minItems items are generated only this
 * many objects and arrays deep; below, a value is as small as its schema allows.
 */
const FULL_DEPTH = 3;
/** Deeper than this, a recursive schema has no way to stop (every level required). */
const MAX_DEPTH = 12;
/** Tries of a value a check refused (a pattern, a `not`) before giving up. */
const TRIES = 10;
/** Tries of an array item equal to none before it (uniqueItems over few values, e.g. an enum). */
const UNIQUE_TRIES = 50;
/** How far an unbounded end of a number's range lies from the other end (or from 1). */
const DEFAULT_RANGE = 1000;
const INT32 = 2 ** 31;
/** The decimals of a generated number that has no multipleOf. */
const CENTS = 100;

/** The decimals a multipleOf step needs written out (`0.05` → 2, `1e-7` → 7). */
function decimalsOf(n: number): number {
  const [mantissa = '', exponent] = String(n).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.min(20, Math.max(0, fraction - Number(exponent ?? 0)));
}

/** A string's length as JSON Schema counts it: in code points. */
function codePoints(text: string): number {
  return Array.from(text).length;
}

/** Generators of the string formats the contract's validator checks. */
const FORMATS: Readonly<Record<string, (faker: Faker) => string>> = {
  'date-time': (f) =>
    dateOf(f)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
  date: (f) => dateOf(f).toISOString().slice(0, 10),
  time: (f) => `${dateOf(f).toISOString().slice(11, 19)}Z`,
  email: (f) => f.internet.email().toLowerCase(),
  uri: (f) => f.internet.url(),
  url: (f) => f.internet.url(),
  'uri-reference': (f) => `/${f.lorem.slug(2)}`,
  'uri-template': (f) => `${f.internet.url()}{id}`,
  hostname: (f) => f.internet.domainName(),
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  uuid: (f) => f.string.uuid(),
  byte: (f) => Buffer.from(f.lorem.word()).toString('base64'),
  binary: (f) => f.string.alphanumeric(12),
  password: (f) => f.internet.password({ length: 12 }),
  duration: (f) => `P${f.number.int({ min: 1, max: 30 })}D`,
  regex: () => '^[a-z]+$',
  'json-pointer': (f) => `/${f.lorem.word()}`,
  'relative-json-pointer': () => '0',
};

function dateOf(faker: Faker): Date {
  return faker.date.between({ from: '2020-01-01T00:00:00Z', to: '2030-12-31T23:59:59Z' });
}

/** Realistic text for a few common property names (when no format, pattern or enum says more). */
const NAMED_TEXT: Readonly<Record<string, (faker: Faker) => string>> = {
  name: (f) => f.person.fullName(),
  firstname: (f) => f.person.firstName(),
  lastname: (f) => f.person.lastName(),
  username: (f) => f.internet.username(),
  email: (f) => f.internet.email().toLowerCase(),
  phone: (f) => f.phone.number(),
  city: (f) => f.location.city(),
  country: (f) => f.location.country(),
  street: (f) => f.location.street(),
  address: (f) => f.location.streetAddress(),
  company: (f) => f.company.name(),
  title: (f) => f.lorem.words(3),
  description: (f) => f.lorem.sentence(),
  url: (f) => f.internet.url(),
};

/**
 * Writes a value for a schema of an OpenAPI document with a seeded faker: the same faker state,
 * the same value. Every keyword the contract's validator checks is kept to (see
 * docs/contract-answers.md for the list); what cannot be kept to throws a SchemaError naming the
 * place, rather than an answer that would break the contract.
 */
export class SchemaFaker {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly faker: Faker,
    private readonly matches: SchemaMatch,
    /**
     * How many objects and arrays deep optional properties and more than minItems items are
     * generated; 0 writes the smallest value the schema allows (what is left when fuller values
     * cannot be kept to, e.g. a required property its own schema marks writeOnly).
     */
    private readonly fullDepth = FULL_DEPTH,
  ) {}

  /** A value for the schema; `where` names its place in messages (`/response`). */
  fake(schema: unknown, where = '/response'): unknown {
    return this.#value(schema, where, 0, undefined);
  }

  #value(schema: unknown, where: string, depth: number, name: string | undefined): unknown {
    if (depth > MAX_DEPTH) {
      throw new SchemaError(
        where,
        `nests deeper than ${MAX_DEPTH} levels: a recursive schema that requires itself at every level`,
      );
    }
    const documented = this.#documented(schema, where);
    if (documented) return documented.value;
    const base = mergeSchemas(this.document, [schema], where);
    const rounds = Math.max(1, ...base.choices.map((c) => c.branches.length)) + TRIES;
    const starts = new Map<readonly unknown[], number>();
    let problem = '';
    for (let round = 0; round < rounds; round += 1) {
      const { merged, picks } = this.#choose(base, round, starts, where);
      const value = this.#fromMerged(merged, where, depth, name);
      if (!this.#exclusive(picks, value, merged)) {
        problem = 'no branch of its oneOf gives a value that matches that branch only';
      } else if (merged.nots.some((not) => this.matches(not, value))) {
        problem = 'every value tried matches its `not`';
      } else {
        return value;
      }
    }
    throw new SchemaError(where, problem);
  }

  /** The schema's own example (3.0 `example`, 3.1 `examples`) or default, if the schema accepts it. */
  #documented(schema: unknown, where: string): { value: unknown } | undefined {
    const own = derefSchema(this.document, schema, where);
    if (!isRecord(own)) return undefined;
    const candidates: unknown[] = [];
    if ('example' in own) candidates.push(own.example);
    if (Array.isArray(own.examples) && own.examples.length > 0) candidates.push(own.examples[0]);
    if ('default' in own) candidates.push(own.default);
    const found = candidates.find((value) => this.matches(schema, value));
    return found === undefined ? undefined : { value: structuredClone(found) };
  }

  /**
   * Picks a branch of each oneOf and anyOf (in round `round`, the one after the first pick's
   * `round` places), merges it in, and returns the picks whose exclusivity is to be checked.
   */
  #choose(
    base: Merged,
    round: number,
    starts: Map<readonly unknown[], number>,
    where: string,
  ): { merged: Merged; picks: { choice: Choice; branch: unknown }[] } {
    const merged = copyMerged(base);
    const picks: { choice: Choice; branch: unknown }[] = [];
    for (let choice = merged.choices.shift(); choice; choice = merged.choices.shift()) {
      const mapped = choice.branches.filter((b) => choice.discriminator?.keys.has(b));
      const eligible = mapped.length > 0 ? mapped : choice.branches;
      let start = starts.get(choice.branches);
      if (start === undefined) {
        start = this.faker.number.int({ min: 0, max: eligible.length - 1 });
        starts.set(choice.branches, start);
      }
      const branch = eligible[(start + round) % eligible.length];
      mergeInto(this.document, merged, branch, where);
      const key = choice.discriminator?.keys.get(branch);
      if (choice.discriminator && key !== undefined)
        merged.fixed.set(choice.discriminator.property, key);
      if (choice.kind === 'oneOf') picks.push({ choice, branch });
    }
    return { merged, picks };
  }

  /**
   * Whether a value matches none of its oneOfs' other branches. A branch that accepts it only
   * because it allows any extra property is told apart by one of its own properties, set to null
   * where that branch does not allow null (as a discriminator's readers expect, the value then
   * matches its own branch only).
   */
  #exclusive(
    picks: readonly { choice: Choice; branch: unknown }[],
    value: unknown,
    merged: Merged,
  ): boolean {
    for (const { choice, branch } of picks) {
      for (const other of choice.branches) {
        if (other === branch || !this.matches(other, value)) continue;
        if (!isRecord(value)) return false;
        const theirs = mergeSchemas(this.document, [other], '');
        const told = [...theirs.properties].some(([name, schemas]) => {
          if (name in value || merged.properties.has(name) || !this.#allows(merged, name, null))
            return false;
          if (schemas.every((s) => this.matches(s, null))) return false;
          value[name] = null;
          if (!this.matches(other, value)) return true;
          Reflect.deleteProperty(value, name);
          return false;
        });
        if (!told) return false;
      }
    }
    return true;
  }

  /** Whether an object of these schemas may have a property that none of them declares. */
  #allows(m: Merged, name: string, value: unknown): boolean {
    return (
      m.closed.every((names) => names.has(name)) &&
      m.additional.every((s) => this.matches(s, value))
    );
  }

  #fromMerged(m: Merged, where: string, depth: number, name: string | undefined): unknown {
    if (m.constant) return structuredClone(m.constant.value);
    if (m.enums) {
      const allowed = m.enums.filter((v) => typeAllows(m.types, v));
      // A value is chosen, not null, where another is allowed.
      const values = allowed.some((v) => v !== null) ? allowed.filter((v) => v !== null) : allowed;
      if (values.length === 0) throw new SchemaError(where, 'its enum has no value of its type');
      return structuredClone(this.faker.helpers.arrayElement(values));
    }
    const type = this.#typeOf(m, depth, where);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.faker.datatype.boolean();
      case 'integer':
      case 'number':
        return this.#number(m, type === 'integer', where);
      case 'string':
        return this.#string(m, where, name);
      case 'array':
        return this.#array(m, where, depth);
      case 'object':
        return this.#object(m, where, depth);
    }
  }

  #typeOf(m: Merged, depth: number, where: string): JsonType {
    const types = m.types;
    if (types?.size === 0) throw new SchemaError(where, 'its schemas allow no common type');
    const listed = types ? [...types].filter((t) => t !== 'null') : [];
    // Deep down, null (where allowed) ends a recursive structure.
    if (
      types?.has('null') &&
      (listed.length === 0 ||
        (depth >= FULL_DEPTH && listed.every((t) => t === 'object' || t === 'array')))
    ) {
      return 'null';
    }
    const first = listed[0];
    if (first) return first === 'number' && m.format?.startsWith('int') ? 'integer' : first;
    if (
      m.properties.size > 0 ||
      m.required.size > 0 ||
      m.additional.length > 0 ||
      m.minProperties > 0
    )
      return 'object';
    if (m.items.length > 0 || m.prefixItems || m.minItems > 0) return 'array';
    if (m.format === 'int32' || m.format === 'int64') return 'integer';
    if (
      m.lower ||
      m.upper ||
      m.multipleOf.length > 0 ||
      m.format === 'float' ||
      m.format === 'double'
    ) {
      return 'number';
    }
    return 'string';
  }

  #number(m: Merged, integer: boolean, where: string): number {
    // Unbounded ends: near 1, as ids and counts usually are.
    let low = m.lower;
    let high = m.upper;
    if (!low && !high) low = { value: 1, exclusive: false };
    low ??= {
      value: high && high.value > 1 ? 1 : (high?.value ?? 1) - DEFAULT_RANGE,
      exclusive: false,
    };
    high ??= { value: low.value + DEFAULT_RANGE, exclusive: false };
    const int32 = m.format === 'int32';
    low = stricter(
      low,
      { value: int32 ? -INT32 : -Number.MAX_SAFE_INTEGER, exclusive: false },
      false,
    );
    high = stricter(
      high,
      { value: int32 ? INT32 - 1 : Number.MAX_SAFE_INTEGER, exclusive: false },
      true,
    );
    if (!low || !high) throw new SchemaError(where, 'has no bounds');
    const [lo, hi] = [low, high];
    const step = m.multipleOf[0] ?? (integer ? 1 : 1 / CENTS);
    const above = (v: number): boolean => (lo.exclusive ? v > lo.value : v >= lo.value);
    const below = (v: number): boolean => (hi.exclusive ? v < hi.value : v <= hi.value);
    let kLow = Math.ceil(lo.value / step);
    if (!above(kLow * step)) kLow += 1;
    let kHigh = Math.floor(hi.value / step);
    if (!below(kHigh * step)) kHigh -= 1;
    if (kLow > kHigh) {
      throw new SchemaError(
        where,
        `no ${integer ? 'integer' : 'number'} lies within its bounds and multipleOf`,
      );
    }
    const decimals = decimalsOf(step);
    const start = this.faker.number.int({ min: kLow, max: kHigh });
    for (let i = 0; i <= Math.min(kHigh - kLow, 100); i += 1) {
      const k = kLow + ((start - kLow + i) % (kHigh - kLow + 1));
      const value = Number((k * step).toFixed(decimals));
      const fits =
        above(value) &&
        below(value) &&
        (!integer || Number.isInteger(value)) &&
        // As the validator checks multipleOf: the quotient is a whole number, in doubles.
        m.multipleOf.every((d) => Number.isInteger(value / d));
      if (fits) return value;
    }
    throw new SchemaError(
      where,
      `no number found that is a multiple of ${m.multipleOf.join(' and ')} within its bounds`,
    );
  }

  #string(m: Merged, where: string, name: string | undefined): string {
    const draw = (min: number, max: number): number => this.faker.number.int({ min, max });
    const patterns = m.patterns.map((p) => new RegExp(p, 'u'));
    for (let i = 0; i < TRIES; i += 1) {
      let text: string;
      const [pattern] = m.patterns;
      if (pattern !== undefined) {
        try {
          text = stringFromPattern(pattern, draw);
        } catch (error) {
          if (error instanceof UnsupportedPatternError) throw new SchemaError(where, error.message);
          throw error;
        }
      } else if (m.format !== undefined && FORMATS[m.format]) {
        text = FORMATS[m.format]?.(this.faker) ?? '';
      } else {
        text = this.#text(m, name);
      }
      const length = codePoints(text);
      if (length >= m.minLength && length <= m.maxLength && patterns.every((p) => p.test(text))) {
        return text;
      }
    }
    const rules = [
      ...m.patterns.map((p) => `pattern /${p}/`),
      ...(m.format === undefined ? [] : [`format ${m.format}`]),
      `length ${m.minLength} to ${m.maxLength}`,
    ];
    throw new SchemaError(where, `no string found that keeps to ${rules.join(', ')}`);
  }

  /** Words, or a realistic value for a common property name, fitted to minLength and maxLength. */
  #text(m: Merged, name: string | undefined): string {
    const named = name === undefined ? undefined : NAMED_TEXT[name.toLowerCase()];
    let text = named ? named(this.faker) : this.faker.lorem.words(2);
    while (codePoints(text) < m.minLength) text += ` ${this.faker.lorem.word()}`;
    if (codePoints(text) > m.maxLength)
      text = Array.from(text).slice(0, m.maxLength).join('').trimEnd();
    while (codePoints(text) < m.minLength) text += this.faker.string.alpha(1);
    return text;
  }

  #array(m: Merged, where: string, depth: number): unknown[] {
    const item: unknown = m.items.length > 1 ? { allOf: m.items } : m.items[0];
    const prefix = m.prefixItems ?? [];
    const wanted =
      depth >= this.fullDepth
        ? m.minItems
        : Math.max(m.minItems, 1) + this.faker.number.int({ min: 0, max: 1 });
    const count = Math.min(wanted, m.maxItems);
    if (count < m.minItems)
      throw new SchemaError(where, `minItems ${m.minItems} is above maxItems ${m.maxItems}`);
    const values: unknown[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < count; i += 1) {
      const schema = prefix[i] ?? item;
      let added = false;
      for (let t = 0; t < UNIQUE_TRIES && !added; t += 1) {
        const value = this.#value(schema, `${where}/${i}`, depth + 1, undefined);
        const key = stableKey(value);
        if (m.uniqueItems && seen.has(key)) continue;
        seen.add(key);
        values.push(value);
        added = true;
      }
      if (!added && values.length < m.minItems) {
        throw new SchemaError(where, `cannot find ${m.minItems} distinct items (uniqueItems)`);
      }
      if (!added) break;
    }
    return values;
  }

  #object(m: Merged, where: string, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const full = depth < this.fullDepth;
    const names = new Set([...m.properties.keys(), ...m.required, ...m.fixed.keys()]);
    for (const name of names) {
      const schemas = m.properties.get(name) ?? [];
      const schema: unknown =
        schemas.length > 1 ? { allOf: schemas } : (schemas[0] ?? this.#additionalSchema(m));
      // Never in an answer; the validator does not require it there either.
      if (schemas.length > 0 && mergeSchemas(this.document, schemas, where).writeOnly) continue;
      const required = m.required.has(name) || m.fixed.has(name);
      if (!m.closed.every((allowed) => allowed.has(name))) {
        if (required)
          throw new SchemaError(
            `${where}/${name}`,
            'is required, but additionalProperties: false leaves it out',
          );
        continue;
      }
      if (!required && !full) continue;
      const fixed = m.fixed.get(name);
      if (fixed !== undefined && this.matches(schema, fixed)) out[name] = fixed;
      else out[name] = this.#value(schema, `${where}/${name}`, depth + 1, name);
    }
    const open = m.closed.length === 0;
    const extra = names.size === 0 && open && m.additional.length > 0 && full ? 2 : 0;
    const target = Math.max(m.minProperties, Object.keys(out).length + extra);
    for (let i = 0; Object.keys(out).length < target && i < target * TRIES; i += 1) {
      if (!open)
        throw new SchemaError(
          where,
          `minProperties ${m.minProperties} needs properties that additionalProperties: false forbids`,
        );
      const key = this.faker.lorem.word();
      if (key in out || names.has(key)) continue;
      out[key] = this.#value(this.#additionalSchema(m), `${where}/${key}`, depth + 1, undefined);
    }
    const optional = Object.keys(out).filter((key) => !m.required.has(key) && !m.fixed.has(key));
    while (Object.keys(out).length > m.maxProperties) {
      const key = optional.pop();
      if (key === undefined)
        throw new SchemaError(
          where,
          `requires more properties than maxProperties ${m.maxProperties}`,
        );
      Reflect.deleteProperty(out, key);
    }
    return out;
  }

  #additionalSchema(m: Merged): unknown {
    return m.additional.length > 1
      ? { allOf: m.additional }
      : (m.additional[0] ?? { type: 'string' });
  }
}
