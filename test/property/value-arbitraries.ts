/**
 * Values and bodies generated from openapi.yaml's schemas: valid ones and mutated ones. Every
 * part of a request carries a verdict: `valid` (the contract accepts it), `invalid` (the contract
 * refuses it: a 400), or `unknown` (the contract does not settle it: only the invariants apply).
 */
import fc from 'fast-check';
import { isNode, schemaOf, type ContractModel, type Node } from './contract-model.js';
import {
  exactInteger,
  isJsonSyntax,
  JsonNested,
  JsonObject,
  JsonRaw,
  JsonRepeat,
  JsonString,
  toJsonText,
  type JsonValue,
} from './json-text.js';

export type Verdict = 'valid' | 'invalid' | 'unknown';

/** An invalid part makes the whole invalid; otherwise any unknown part makes it unknown. */
export function combine(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('invalid')) return 'invalid';
  return verdicts.includes('unknown') ? 'unknown' : 'valid';
}

/** The value the server must store and give back for a field it accepts. */
export type Exact = string | bigint | JsonRepeat;

export function exactValue(exact: Exact): string | bigint {
  return exact instanceof JsonRepeat ? exact.value : exact;
}

/** A generated JSON value for a schema, with its verdict and (when known) its exact meaning. */
export interface Generated {
  readonly node: JsonValue;
  readonly verdict: Verdict;
  readonly exact?: Exact | undefined;
}

/** A request body as generated; its bytes are made by `bodyBytes`. */
export interface BodyPart {
  /** The JSON tree the body was written from, or text when it is not JSON (or mutated). */
  readonly source: { readonly json: JsonValue } | { readonly text: string };
  /** Whitespace between tokens. */
  readonly space: string;
  /** Bytes that are not UTF-8, spliced in at a position of the text. */
  readonly splice?: { readonly at: number; readonly bytes: readonly number[] } | undefined;
  readonly verdict: Verdict;
  /** What a 201 must contain, field by field, when the body is accepted. */
  readonly exact?: Readonly<Record<string, Exact>> | undefined;
  /** Nested deeper than ordinary JSON: a depth limit may refuse it before anything else. */
  readonly deep?: boolean;
}

// ---------------------------------------------------------------- strings

const ODD_UNITS = [
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\u2060',
  '\ufeff',
  '\u202e', // right-to-left override
  '\u200f',
  '\u05e9\u05dc\u05d5\u05dd', // Hebrew
  '\u0645\u0631\u062d\u0628\u0627', // Arabic
  '\ud83d\udc36', // a surrogate pair
  '\ud83d\udc69\u200d\ud83d\udc69\u200d\ud83d\udc67',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\udc00\ud800', // swapped pair
  'e\u0301',
  '\u2028',
  '\u2029',
  '\uffff',
  '\ufffd',
  '"',
  '\\',
  '/',
  '</script>',
  '\r\n',
  '\t',
  '%00',
  '{"a":1}',
  'é',
  '\u{1d518}',
] as const;

/** Strings with odd unicode: surrogates (paired and lone), RTL, zero-width, NUL, controls. */
export const oddString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...ODD_UNITS) },
      { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const jsonString = (value: fc.Arbitrary<string>): fc.Arbitrary<JsonString> =>
  fc
    .tuple(value, fc.boolean(), fc.nat(4))
    .map(([text, escaped, roll]) => new JsonString(text, escaped && roll === 0));

export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
] as const;

// ---------------------------------------------------------------- numbers

const TWO_53 = 2n ** 53n;
const TWO_63 = 2n ** 63n;
const TWO_31 = 2n ** 31n;

export interface Bounds {
  readonly lo: bigint;
  readonly hi: bigint;
}

export function integerBounds(schema: Node): Bounds {
  const wide = schema.format === 'int32' ? TWO_31 : TWO_63;
  const lo = typeof schema.minimum === 'number' ? BigInt(Math.ceil(schema.minimum)) : -wide;
  const hi = typeof schema.maximum === 'number' ? BigInt(Math.floor(schema.maximum)) : wide - 1n;
  if (schema.exclusiveMinimum === true || schema.exclusiveMaximum === true) {
    throw new Error('exclusive bounds are not modelled');
  }
  return { lo, hi };
}

export const inside = ({ lo, hi }: Bounds, value: bigint): boolean => value >= lo && value <= hi;

export function integersInside(bounds: Bounds): fc.Arbitrary<bigint> {
  const { lo, hi } = bounds;
  const edges = [lo, lo + 1n, hi - 1n, hi, 0n, 1n, -1n, 2n, 10n, TWO_31 - 1n, TWO_31, 2n ** 32n]
    .concat([TWO_53 - 1n, TWO_53, TWO_53 + 1n, -TWO_53 - 1n, -TWO_53 + 1n, TWO_63 - 2n])
    .filter((value) => inside(bounds, value));
  const small = { min: lo > -1000n ? lo : -1000n, max: hi < 1000n ? hi : 1000n };
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min: lo, max: hi }), fc.bigInt(small));
}

export function integersOutside({ lo, hi }: Bounds): fc.Arbitrary<bigint> {
  return fc.oneof(
    fc.constantFrom(lo - 1n, hi + 1n, lo - 2n ** 64n, hi + 2n ** 64n, 10n ** 20n, -(10n ** 40n)),
    fc.bigInt({ min: hi + 1n, max: hi + 2n ** 70n }),
    fc.bigInt({ min: lo - 2n ** 70n, max: lo - 1n }),
  );
}

/** Forms of the same integer that are not its canonical digits: `1e3`, `10.0`, `-0`. */
export function nonCanonical(value: bigint): fc.Arbitrary<string> {
  const forms = [`${value}.0`, `${value}e0`, `${value}E+0`, `${value}.000`, `${value}0e-1`];
  let mantissa = value;
  let exponent = 0;
  while (mantissa !== 0n && mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  if (exponent > 0) forms.push(`${mantissa}e${exponent}`, `${mantissa}E${exponent}`);
  if (value === 0n) forms.push('-0', '-0.0', '0e5');
  return fc.constantFrom(...forms);
}

const FRACTIONS = [
  '0.5',
  '-0.1',
  '1.5',
  '1e-1',
  '1.5e300',
  '1e400',
  '-1e400',
  '4503599627370495.5',
  '9007199254740993.5',
] as const;

/** Not integers, though a double rounds them to one. */
export const ROUNDED_TO_INTEGER = [
  '1.0000000000000001',
  '4503599627370496.5',
  '-9007199254740991.0000001',
  '0.99999999999999999',
] as const;

export const fractionLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...FRACTIONS, ...ROUNDED_TO_INTEGER),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.stringMatching(/^\d{1,20}$/))
    .filter(([, fraction]) => /[1-9]/.test(fraction))
    .map(([whole, fraction]) => `${whole}.${fraction}`),
);

/** Not JSON number syntax at all. */
const BAD_NUMBER_SYNTAX = ['+1', '01', '.5', '1.', '0x10', 'NaN', 'Infinity', '-', '1e', '1_000'];

/** Number literal texts for an integer schema: canonical inside and outside, odd forms, floats. */
function integerTexts(schema: Node, validOnly: boolean): fc.Arbitrary<string> {
  const bounds = integerBounds(schema);
  const canonical = integersInside(bounds).map(String);
  if (validOnly) return canonical;
  return fc.oneof(
    { weight: 6, arbitrary: canonical },
    { weight: 1, arbitrary: integersOutside(bounds).map(String) },
    { weight: 1, arbitrary: integersInside(bounds).chain(nonCanonical) },
    { weight: 1, arbitrary: fractionLiteral },
    { weight: 1, arbitrary: fc.constantFrom(...ROUNDED_TO_INTEGER) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_NUMBER_SYNTAX) },
  );
}

/** The verdict on an integer literal: canonical inside → valid, other forms inside → unknown. */
function integerVerdict(schema: Node, text: string): { verdict: Verdict; value?: bigint } {
  const value = isJsonSyntax(text) ? exactInteger(text) : undefined;
  if (value === undefined || !inside(integerBounds(schema), value)) return { verdict: 'invalid' };
  return { verdict: text === String(value) ? 'valid' : 'unknown', value };
}

// ---------------------------------------------------------------- values of a schema

export const smallJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4, withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(
      fc.integer().map((n) => new JsonRaw(String(n))),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => new JsonRaw(String(n))),
      fc.constantFrom(...FRACTIONS).map((text) => new JsonRaw(text)),
    ),
    jsonString(oddString),
    fc.array(tie('value'), { maxLength: 3 }),
    // Distinct names: duplicates are a mutation of their own (see objectBody).
    fc
      .uniqueArray(
        fc.tuple(jsonString(fc.oneof(oddString, fc.constantFrom(...PROTO_KEYS))), tie('value')),
        { maxLength: 3, selector: ([key]) => key.value },
      )
      .map((entries) => new JsonObject(entries)),
  ),
})).value;

export const deepNesting: fc.Arbitrary<JsonNested> = fc
  .tuple(
    fc.constantFrom<'[' | '{'>('[', '{'),
    fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 60_000 })),
  )
  .map(([open, depth]) => new JsonNested(open, depth));

/** Ranks that put a few entries in any order (missing ranks keep the written order). */
export const ORDER: fc.Arbitrary<number[]> = fc.array(fc.nat(), { minLength: 8, maxLength: 8 });

/** Nesting this deep is ordinary JSON; deeper, a depth limit may refuse it. */
const SHALLOW = 16;

/** JSON values of another type than the schema's. */
function wrongType(schema: Node): fc.Arbitrary<JsonValue> {
  const type = schema.type;
  return smallJson.filter((node) => {
    if (node === null) return schema.nullable !== true;
    if (typeof node === 'boolean') return type !== 'boolean';
    if (node instanceof JsonRaw) return type !== 'integer' && type !== 'number';
    if (node instanceof JsonString) return type !== 'string';
    if (node instanceof JsonObject) return type !== 'object';
    return type !== 'array';
  });
}

/** A string that is not one of the enumeration. */
export function notInEnum(members: readonly string[]): fc.Arbitrary<string> {
  const variants = members.flatMap((m) => [
    m.toUpperCase(),
    `${m.charAt(0).toUpperCase()}${m.slice(1)}`,
    ` ${m}`,
    `${m} `,
    `${m}\u0000`,
    `${m}\u200b`,
  ]);
  return fc
    .oneof(fc.constantFrom('', ...variants), oddString, fc.string())
    .filter((value) => !members.includes(value));
}

export function enumOf(schema: Node): string[] | undefined {
  return Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
}

/**
 * Values for a (resolved) schema: string, string enum, or integer (with format and bounds). With
 * `validOnly`, only values the contract accepts.
 */
export function valueFor(
  model: ContractModel,
  raw: unknown,
  validOnly: boolean,
): fc.Arbitrary<Generated> {
  const schema = schemaOf(model.document, raw);
  const members = enumOf(schema);
  let valid: fc.Arbitrary<Generated>;
  let invalid: fc.Arbitrary<Generated> | undefined;
  if (members) {
    valid = fc
      .constantFrom(...members)
      .map((value) => ({ node: new JsonString(value), verdict: 'valid', exact: value }));
    invalid = jsonString(notInEnum(members)).map((node) => ({ node, verdict: 'invalid' }));
  } else if (schema.type === 'string') {
    valid = jsonString(oddString).map((node) => ({ node, verdict: 'valid', exact: node.value }));
  } else if (schema.type === 'integer') {
    const texts = integerTexts(schema, validOnly);
    return (
      validOnly
        ? texts
        : fc.oneof({ weight: 9, arbitrary: texts }, { weight: 1, arbitrary: fc.constant('') })
    ).chain((text) =>
      text === ''
        ? wrongType(schema).map((node): Generated => ({ node, verdict: 'invalid' }))
        : fc.constant(text).map((literal): Generated => {
            const { verdict, value } = integerVerdict(schema, literal);
            return { node: new JsonRaw(literal), verdict, exact: value };
          }),
    );
  } else {
    throw new Error(`schema type ${String(schema.type)} is not modelled`);
  }
  if (validOnly) return valid;
  const wrong = wrongType(schema).map((node): Generated => ({ node, verdict: 'invalid' }));
  return invalid
    ? fc.oneof(
        { weight: 6, arbitrary: valid },
        { weight: 1, arbitrary: invalid },
        { weight: 1, arbitrary: wrong },
      )
    : fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: wrong });
}

// ---------------------------------------------------------------- bodies

interface Field {
  readonly name: string;
  readonly required: boolean;
  readonly schema: unknown;
}

function fieldsOf(model: ContractModel, schema: Node): Field[] {
  if (schema.type !== 'object' || !isNode(schema.properties)) {
    throw new Error('only object request bodies are modelled');
  }
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    required: required.includes(name),
    schema: schemaOf(model.document, property),
  }));
}

type FieldChoice = { readonly field: Field; readonly value: Generated | undefined };

/** One field: present with a generated value, or absent (invalid when required). */
function fieldChoice(
  model: ContractModel,
  field: Field,
  validOnly: boolean,
): fc.Arbitrary<FieldChoice> {
  const present = valueFor(model, field.schema, validOnly).map((value) => ({ field, value }));
  const absent = fc.constant({ field, value: undefined });
  if (field.required) {
    return validOnly
      ? present
      : fc.oneof({ weight: 12, arbitrary: present }, { weight: 1, arbitrary: absent });
  }
  return fc.oneof(present, absent);
}

interface Extra {
  readonly key: JsonString;
  readonly value: JsonValue;
  readonly verdict: Verdict;
  readonly deep: boolean;
}

/** Fields the schema does not declare: odd names, prototype names, `id`, deep nesting. */
function extraField(declared: readonly string[], additional: boolean): fc.Arbitrary<Extra> {
  const key = jsonString(
    fc
      .oneof(fc.constantFrom(...PROTO_KEYS, 'id', 'polluted'), oddString)
      .filter((k) => !declared.includes(k)),
  );
  const value = fc.oneof(
    { weight: 4, arbitrary: smallJson.map((node) => ({ node, shallow: true })) },
    { weight: 1, arbitrary: deepNesting.map((node) => ({ node, shallow: node.depth <= SHALLOW })) },
  );
  return fc.tuple(key, value).map(([k, { node, shallow }]) => ({
    key: k,
    value: node,
    verdict: additional ? 'valid' : 'invalid',
    deep: !shallow,
  }));
}

/** Objects for an object schema: declared fields valid or not, extras, duplicates, any order. */
export function objectBody(
  model: ContractModel,
  raw: unknown,
  validOnly: boolean,
): fc.Arbitrary<BodyPart> {
  const schema = schemaOf(model.document, raw);
  const fields = fieldsOf(model, schema);
  const declared = fields.map((f) => f.name);
  const additional = schema.additionalProperties !== false;
  const extras = validOnly
    ? fc.constant([])
    : fc.uniqueArray(extraField(declared, additional), {
        maxLength: 3,
        selector: (extra) => extra.key.value,
      });
  const duplicate = validOnly
    ? fc.constant(undefined)
    : fc.option(
        fc
          .constantFrom(...fields)
          .chain((field) => valueFor(model, field.schema, true).map((value) => ({ field, value }))),
        { freq: 10 },
      );
  const space = validOnly
    ? fc.constant('')
    : fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');
  return fc
    .tuple(
      fc.tuple(...fields.map((field) => fieldChoice(model, field, validOnly))),
      extras,
      duplicate,
      space,
      ORDER,
    )
    .map(([choices, extraFields, dup, spacing, order]) => {
      const entries: { key: JsonString; value: JsonValue; rank: number }[] = [];
      const verdicts: Verdict[] = [];
      const exact: Record<string, Exact> = {};
      let exactKnown = true;
      const ranks = [...order];
      const rank = (): number => ranks.pop() ?? 0;
      for (const { field, value } of choices) {
        if (!value) {
          verdicts.push(field.required ? 'invalid' : 'valid');
          continue;
        }
        entries.push({ key: new JsonString(field.name), value: value.node, rank: rank() });
        verdicts.push(value.verdict);
        if (value.exact === undefined) exactKnown = false;
        else exact[field.name] = value.exact;
      }
      let deep = false;
      for (const extra of extraFields) {
        entries.push({ key: extra.key, value: extra.value, rank: rank() });
        verdicts.push(extra.verdict);
        deep ||= extra.deep;
      }
      // A second occurrence of a field that is present (of an absent one, it would be the first).
      if (dup && choices.some((c) => c.field === dup.field && c.value)) {
        // RFC 8259 leaves duplicate names to the parser: refusing and last-wins are both fine.
        entries.push({ key: new JsonString(dup.field.name), value: dup.value.node, rank: rank() });
        verdicts.push('unknown');
        exactKnown = false;
      }
      entries.sort((a, b) => a.rank - b.rank);
      return {
        source: { json: new JsonObject(entries.map(({ key, value }) => [key, value] as const)) },
        space: spacing,
        verdict: combine(verdicts),
        exact: exactKnown ? exact : undefined,
        deep,
      };
    });
}

/** A valid object body whose string field is padded to land near a byte size. */
function paddedBody(model: ContractModel, raw: unknown, limit: number): fc.Arbitrary<BodyPart> {
  const fields = fieldsOf(model, schemaOf(model.document, raw));
  const stringField = fields.find(
    (f) => isNode(f.schema) && f.schema.type === 'string' && !enumOf(f.schema),
  );
  if (!stringField) return objectBody(model, raw, true);
  const targets = [limit - 2000, limit - 1, limit, limit + 1, limit + 5000, 150_000, 200_000];
  return fc
    .tuple(
      objectBody(model, raw, true),
      fc.constantFrom(...targets),
      fc.constantFrom('a', 'é', '\ud83d\udc36', '\u0000'),
    )
    .map(([body, target, unit]) => {
      const source = 'json' in body.source ? body.source.json : undefined;
      if (!(source instanceof JsonObject)) return body;
      const overhead = Buffer.byteLength(toJsonText(source)) + 64;
      const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
      const repeat = new JsonRepeat(unit, Math.max(1, Math.floor((target - overhead) / unitBytes)));
      const entries = source.entries.map(([key, value]) =>
        key.value === stringField.name ? ([key, repeat] as const) : ([key, value] as const),
      );
      return {
        ...body,
        source: { json: new JsonObject(entries) },
        exact: body.exact && { ...body.exact, [stringField.name]: repeat },
      };
    });
}

/** Truncations and one-character corruptions of a valid text. */
function malformed(body: fc.Arbitrary<BodyPart>): fc.Arbitrary<BodyPart> {
  return fc
    .tuple(
      body,
      fc.nat(),
      fc.constantFrom('truncate', 'delete', 'insert', 'replace'),
      fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'x', '0', ' ', '\u0000'),
    )
    .map(([part, position, how, char]) => {
      const text = bodyText(part);
      const at = position % Math.max(1, text.length);
      const mutated =
        how === 'truncate'
          ? text.slice(0, at)
          : how === 'delete'
            ? text.slice(0, at) + text.slice(at + 1)
            : how === 'insert'
              ? text.slice(0, at) + char + text.slice(at)
              : text.slice(0, at) + char + text.slice(at + 1);
      // A standard parser is the judge of syntax; a corruption may still be valid JSON.
      return {
        source: { text: mutated },
        space: '',
        verdict: isJsonSyntax(mutated) ? 'unknown' : 'invalid',
        deep: part.deep,
      };
    });
}

/** Request bodies for an operation's JSON schema, from valid to thoroughly broken. */
export function bodyFor(
  model: ContractModel,
  raw: unknown,
  bodyLimit: number,
): fc.Arbitrary<BodyPart> {
  const object = objectBody(model, raw, false);
  const notObject = fc
    .oneof(
      smallJson.filter((node) => !(node instanceof JsonObject)),
      fc.array(
        objectBody(model, raw, true).map((b) => ('json' in b.source ? b.source.json : null)),
        { maxLength: 2 },
      ),
      deepNesting.filter((node) => node.open === '['),
    )
    .map((node): BodyPart => ({
      source: { json: node },
      space: '',
      verdict: 'invalid',
      deep: node instanceof JsonNested && node.depth > SHALLOW,
    }));
  const empty = fc
    .constantFrom('', ' ', '\n', '\r\n\t ')
    .map((text): BodyPart => ({ source: { text }, space: '', verdict: 'invalid' }));
  const notUtf8 = fc
    .tuple(
      object,
      fc.nat(),
      fc.constantFrom(
        [0xff],
        [0xc3],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xc0, 0xaf],
      ),
    )
    .map(([part, at, bytes]): BodyPart => ({
      ...part,
      splice: { at, bytes },
      verdict: 'unknown',
      exact: undefined,
    }));
  // A byte order mark changes nothing an invalid body could be refused for.
  const bom = object.map((part): BodyPart => ({
    source: { text: `\ufeff${bodyText(part)}` },
    space: '',
    verdict: part.verdict === 'invalid' ? 'invalid' : 'unknown',
    exact: part.exact,
    deep: part.deep,
  }));
  return fc.oneof(
    { weight: 12, arbitrary: object },
    { weight: 2, arbitrary: notObject },
    { weight: 1, arbitrary: empty },
    { weight: 3, arbitrary: malformed(object) },
    { weight: 1, arbitrary: notUtf8 },
    { weight: 1, arbitrary: bom },
    { weight: 2, arbitrary: paddedBody(model, raw, bodyLimit) },
  );
}

/** The text of a body (before any non-UTF-8 splice). */
export function bodyText(part: BodyPart): string {
  return 'json' in part.source ? toJsonText(part.source.json, part.space) : part.source.text;
}

/** The bytes of a body as sent. */
export function bodyBytes(part: BodyPart): Buffer {
  const bytes = Buffer.from(bodyText(part), 'utf8');
  if (!part.splice) return bytes;
  const at = part.splice.at % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(part.splice.bytes), bytes.subarray(at)]);
}
