/**
 * Whole requests generated from openapi.yaml: operations with their parameters and bodies, other
 * methods and paths, and every variant of the headers the mock reads.
 */
import fc from 'fast-check';
import type { ContractModel, OperationModel, ParameterModel } from './contract-model.js';
import { exactInteger } from './json-text.js';
import {
  bodyFor,
  combine,
  enumOf,
  fractionLiteral,
  integerBounds,
  integersInside,
  integersOutside,
  inside,
  nonCanonical,
  ORDER,
  notInEnum,
  oddString,
  PROTO_KEYS,
  type BodyPart,
  type Verdict,
} from './value-arbitraries.js';

export type PathParam =
  | { readonly kind: 'existing'; readonly pick: number }
  | {
      readonly kind: 'literal';
      /** As it goes in the URL (percent-encoded or deliberately not). */
      readonly text: string;
      readonly verdict: Verdict;
      readonly value?: bigint | undefined;
    };

export type Target =
  | {
      readonly kind: 'operation';
      readonly template: string;
      readonly params: Readonly<Record<string, PathParam>>;
    }
  | {
      readonly kind: 'raw';
      readonly path: string;
      /** outside: 404 whatever else; base: 401/422/404 in that order; unknown: invariants only. */
      readonly expect: 'outside' | 'base' | 'unknown';
    };

export interface QueryPart {
  /** Without the `?`; empty for none. */
  readonly text: string;
  readonly verdict: Verdict;
  /** The declared parameters given once, validly: name → decoded value. */
  readonly given: Readonly<Record<string, string>>;
}

export interface RequestPlan {
  readonly method: string;
  readonly target: Target;
  readonly query: QueryPart;
  readonly auth: { readonly header: string | undefined; readonly accepted: boolean };
  readonly session: { readonly header: string | undefined; readonly kind: SessionKind };
  readonly contentType?: { readonly header: string | undefined; readonly kind: MediaKind };
  readonly encoding?: { readonly header: string; readonly compress: boolean } | undefined;
  readonly accept?: { readonly header: string; readonly json: boolean } | undefined;
  readonly control?: { readonly name: string; readonly value: string } | undefined;
  readonly body?: BodyPart | undefined;
}

export type SessionKind = 'none' | 'pool' | 'invalid';
export type MediaKind = 'json' | 'odd' | 'other';

/** Methods sent at paths; supertest has a function for each. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type Method = (typeof METHODS)[number];

/** What the generators need besides the document. */
export interface Environment {
  readonly model: ContractModel;
  /** The accepted bearer token. */
  readonly token: string;
  /** X-Mock-Session ids requests may use (each its own store). */
  readonly sessionIds: readonly string[];
  /** Scenario names that answer at once (no delay, no network fault). */
  readonly scenarioNames: readonly string[];
  /** The request body limit in bytes. */
  readonly bodyLimit: number;
}

/** Which mutations a property turns on. */
export interface Knobs {
  /** Operations (by operationId) to build requests for; all when absent. */
  readonly operations?: readonly string[];
  /** Other methods than the operation's. */
  readonly anyMethod?: boolean;
  /** Paths that are no operation's. */
  readonly rawPaths?: boolean;
  /** Every Authorization variant; otherwise the valid one. */
  readonly authVariants?: boolean;
  /** Content types, encodings and Accept headers. */
  readonly mediaVariants?: boolean;
  /** X-Mock-Session headers. */
  readonly sessions?: boolean;
  /** Prefer and X-Mock-Scenario headers. */
  readonly control?: boolean;
}

// ---------------------------------------------------------------- URL text

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes the UTF-8 bytes of a text (lone surrogates become U+FFFD, as in any client). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent sequences that do not decode: truncated, not hex, not UTF-8, overlong. */
const MALFORMED_PERCENT = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF', '%00', '%%32'];

// ---------------------------------------------------------------- parameters

interface ParamValue {
  /** As it goes in the URL. */
  readonly text: string;
  readonly verdict: Verdict;
  /** The decoded value, when it is valid. */
  readonly decoded?: string | undefined;
}

/** Texts that are no integer, though JavaScript's Number() reads most of them as one. */
const NOT_INTEGERS = [
  '',
  'abc',
  '0x10',
  '0b11',
  '0o7',
  '+5',
  ' 5',
  '5 ',
  '5\n',
  '\t5',
  '1.',
  '1_0',
  'Infinity',
  '-Infinity',
  'NaN',
  'null',
  'true',
  '[1]',
];

const HUGE = fc.integer({ min: 1000, max: 4000 }).map((n) => 'x'.repeat(n));

/** Values of a query parameter, from its schema: an integer with bounds, or a string enum. */
function queryValue(model: ContractModel, param: ParameterModel): fc.Arbitrary<ParamValue> {
  const schema = param.schema;
  const malformed = fc
    .constantFrom(...MALFORMED_PERCENT, '+', '%2B1', '%201', '1%20')
    .map((text): ParamValue => ({ text, verdict: 'unknown' }));
  const huge = HUGE.map((text): ParamValue => ({ text, verdict: 'invalid' }));
  const members = enumOf(schema);
  if (members) {
    return fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .constantFrom(...members)
          .map((v) => ({ text: percentEncode(v), verdict: 'valid' as const, decoded: v })),
      },
      {
        weight: 2,
        arbitrary: notInEnum(members).map((v) => ({
          text: percentEncode(v),
          verdict: 'invalid' as const,
        })),
      },
      { weight: 1, arbitrary: malformed },
      { weight: 1, arbitrary: huge },
    );
  }
  if (schema.type !== 'integer')
    throw new Error(`query parameter ${param.name}: type not modelled`);
  const bounds = integerBounds(schema);
  const classify = (text: string): ParamValue => {
    const value = exactInteger(text);
    if (value !== undefined && inside(bounds, value)) {
      return text === String(value)
        ? { text: percentEncode(text), verdict: 'valid', decoded: text }
        : { text: percentEncode(text), verdict: 'unknown' };
    }
    // Anything else is not an integer in range: hex, `Infinity`, padded, fractions, words.
    return { text: percentEncode(text), verdict: 'invalid' };
  };
  const edges = [
    bounds.lo - 1n,
    bounds.lo,
    bounds.lo + 1n,
    bounds.hi - 1n,
    bounds.hi,
    bounds.hi + 1n,
  ];
  return fc.oneof(
    { weight: 4, arbitrary: integersInside(bounds).map((v) => classify(String(v))) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...edges, 0n, -1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n, 2n ** 53n + 1n)
        .map((v) => classify(String(v))),
    },
    { weight: 1, arbitrary: integersOutside(bounds).map((v) => classify(String(v))) },
    { weight: 1, arbitrary: integersInside(bounds).chain(nonCanonical).map(classify) },
    { weight: 1, arbitrary: fractionLiteral.map(classify) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...NOT_INTEGERS).map(classify),
    },
    { weight: 1, arbitrary: oddString.map(classify) },
    { weight: 1, arbitrary: malformed },
    { weight: 1, arbitrary: huge },
  );
}

/** Mostly nothing; now and then the values of `arbitrary`. */
function rarely<T>(arbitrary: fc.Arbitrary<T[]>): fc.Arbitrary<T[]> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant<T[]>([]) }, { weight: 1, arbitrary });
}

interface QueryEntry {
  readonly key: string;
  readonly value: ParamValue;
  /** Declared parameter (its first occurrence). */
  readonly declared: boolean;
}

/** Query strings for an operation: declared parameters valid or not, unknown keys, duplicates. */
function queryFor(
  model: ContractModel,
  op: OperationModel,
  mutate: boolean,
): fc.Arbitrary<QueryPart> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const choices = params.map((param) =>
    fc
      .option(queryValue(model, param), { freq: param.required ? 12 : 2 })
      .map((value) => ({ param, value })),
  );
  const extraKeys = [
    ...PROTO_KEYS,
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
    ...params.map((p) => `${p.name}[]`),
    ...params.map((p) => `${p.name}[x]`),
    ...params.map((p) => p.name.toUpperCase()),
  ];
  const extra = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...extraKeys),
        oddString.filter((k) => k !== ''),
      ),
      oddString,
    )
    .filter(([key]) => !params.some((p) => p.name === key))
    .map(([key, value]): QueryEntry => ({
      key,
      value: { text: percentEncode(value), verdict: 'unknown' },
      declared: false,
    }));
  const duplicate: fc.Arbitrary<QueryEntry[]> =
    params.length === 0
      ? fc.constant([])
      : fc.array(
          fc.constantFrom(...params).chain((param) =>
            queryValue(model, param).map((value) => ({
              key: param.name,
              value,
              declared: false,
            })),
          ),
          { maxLength: 2 },
        );
  return fc
    .tuple(
      fc.tuple(...choices),
      mutate ? rarely(fc.array(extra, { minLength: 1, maxLength: 2 })) : fc.constant([]),
      mutate ? rarely(duplicate) : fc.constant([]),
      ORDER,
    )
    .map(([chosen, extras, duplicates, order]) => {
      const verdicts: Verdict[] = [];
      const entries: QueryEntry[] = [];
      for (const { param, value } of chosen) {
        if (value === null) {
          if (param.required) verdicts.push('invalid');
          continue;
        }
        entries.push({ key: param.name, value, declared: true });
        verdicts.push(value.verdict);
      }
      // Unknown keys and repeated keys: the contract does not say (a 400 or ignoring both fit).
      for (const entry of [...extras, ...duplicates]) {
        entries.push({ ...entry, value: { ...entry.value, verdict: 'unknown' } });
        verdicts.push('unknown');
      }
      const ranks = order;
      const ordered = entries
        .map((entry, i) => ({ entry, rank: ranks[i] ?? i }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ entry }) => entry);
      const given: Record<string, string> = {};
      for (const { key, value, declared } of entries) {
        if (declared && value.decoded !== undefined) given[key] = value.decoded;
      }
      return {
        text: ordered.map(({ key, value }) => `${percentEncode(key)}=${value.text}`).join('&'),
        verdict: combine(verdicts),
        given,
      };
    });
}

/** Path parameter values for an integer parameter: existing ids, other int64s, and garbage. */
function pathParamFor(param: ParameterModel): fc.Arbitrary<PathParam> {
  if (param.schema.type !== 'integer')
    throw new Error(`path parameter ${param.name}: type not modelled`);
  const bounds = integerBounds(param.schema);
  const literal = (text: string, verdict: Verdict, value?: bigint): PathParam => ({
    kind: 'literal',
    text,
    verdict,
    value,
  });
  return fc.oneof(
    { weight: 5, arbitrary: fc.nat().map((pick): PathParam => ({ kind: 'existing', pick })) },
    { weight: 3, arbitrary: integersInside(bounds).map((v) => literal(String(v), 'valid', v)) },
    { weight: 1, arbitrary: integersOutside(bounds).map((v) => literal(String(v), 'invalid')) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 20, max: 1500 }).map((n) => literal('9'.repeat(n), 'invalid')),
    },
    { weight: 1, arbitrary: fractionLiteral.map((text) => literal(text, 'invalid')) },
    {
      weight: 1,
      arbitrary: oddString
        .filter((s) => s.trim() !== '' && !/\d/.test(s) && s !== '.' && s !== '..')
        .map((s) => literal(percentEncode(s), 'invalid')),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '+1',
          '01',
          '1.0',
          '1e0',
          '-0',
          '%31',
          '%2B1',
          '1%2F2',
          '%201',
          ...MALFORMED_PERCENT,
        )
        .map((text) => literal(text, 'unknown')),
    },
  );
}

// ---------------------------------------------------------------- paths

/** Paths that are no operation's: outside the base path, unknown under it, and odd spellings. */
function rawTarget(model: ContractModel): fc.Arbitrary<Target> {
  const base = model.basePath;
  const templates = [...model.methodsByTemplate.keys()];
  const firstSegments = templates.map((t) => t.slice(base.length + 1).split('/')[0] ?? '');
  const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
  const isUnderBase = (path: string): boolean => {
    const lower = path.toLowerCase();
    return lower === base.toLowerCase() || lower.startsWith(`${base.toLowerCase()}/`);
  };
  const outside = fc
    .oneof(
      fc.constantFrom(
        '/',
        '/v2/pets',
        '/pets',
        '/api/v1/pets',
        '/favicon.ico',
        '/.env',
        '/%2e%2e/etc/passwd',
        `${base}pets`,
        `${base}.json`,
      ),
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`),
      oddString.map((s) => `/${percentEncode(s)}`),
    )
    .filter((path) => !isUnderBase(path) && !path.toLowerCase().startsWith('/__admin'))
    .map((path): Target => ({ kind: 'raw', path, expect: 'outside' }));
  const concrete = templates.map((t) => t.replace(/\{[^}]+\}/g, '1'));
  const underBase = fc
    .oneof(
      segment.filter((s) => !firstSegments.includes(s)).map((s) => `${base}/${s}`),
      fc.tuple(fc.constantFrom(...concrete), segment).map(([path, s]) => `${path}/1/${s}`),
    )
    .map((path): Target => ({ kind: 'raw', path, expect: 'base' }));
  const odd = fc
    .oneof(
      fc
        .constantFrom(...concrete)
        .chain((path) =>
          fc.constantFrom(
            path.toUpperCase(),
            `${path}/`,
            path.replace(base, `${base}/`),
            path.replace(base, `${base}/.`),
            `${path};x=1`,
            `/${path.slice(1).replace(/\//g, '%2F')}`,
            `${path}%00`,
            `${path}/..`,
          ),
        ),
      fc.constantFrom(base, `${base}/`),
      fc.constantFrom(...MALFORMED_PERCENT).map((m) => `${base}/${m}`),
    )
    .map((path): Target => ({ kind: 'raw', path, expect: 'unknown' }));
  return fc.oneof(outside, underBase, odd);
}

// ---------------------------------------------------------------- headers

function authFor(token: string, variants: boolean): fc.Arbitrary<RequestPlan['auth']> {
  const valid = `Bearer ${token}`;
  if (!variants) return fc.constant({ header: valid, accepted: true });
  const accepted = [
    valid,
    `bearer ${token}`,
    `BEARER ${token}`,
    `Bearer  ${token}`,
    ` Bearer ${token} `,
    `Bearer\t${token}`,
  ];
  const refused = [
    undefined,
    '',
    ' ',
    'Bearer',
    'Bearer ',
    'Bearer    ',
    `Basic ${Buffer.from(`user:${token}`).toString('base64')}`,
    `Token ${token}`,
    token,
    `Bearer ${token} extra`,
    `Bearer ${token.toUpperCase()}`,
    `Bearer wrong-${token}`,
    `Bearer ${token}x`,
    `Bearer ${'k'.repeat(4000)}`,
    'Bearer t\u00e9st',
    `Bearer=${token}`,
    `Bearer,${token}`,
    `Bearer "${token}"`,
    `${token} Bearer`,
  ].filter((header) => header !== valid);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...accepted).map((header) => ({ header, accepted: true })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...refused).map((header) => ({ header, accepted: false })),
    },
  );
}

function sessionFor(ids: readonly string[], on: boolean): fc.Arbitrary<RequestPlan['session']> {
  const none = fc.constant({ header: undefined, kind: 'none' as const });
  if (!on || ids.length === 0) return none;
  return fc.oneof(
    { weight: 8, arbitrary: none },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...ids).map((header) => ({ header, kind: 'pool' as const })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', 'has space', 'x'.repeat(65), '\u00fcn\u00ef', 'a/b', '../x', '{}')
        .map((header) => ({ header, kind: 'invalid' as const })),
    },
  );
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
];
const ODD_JSON_TYPES = [
  'Application/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/json; foo=bar',
  'application/json ; charset=utf-8',
  'application/json; charset',
  '*/*',
  'application/*',
  'application/json, text/plain',
];
const OTHER_TYPES = [
  undefined,
  '',
  'text/plain',
  'text/json',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/problem+json',
  'application/jsonx',
  'json',
];

function contentTypeFor(variants: boolean): fc.Arbitrary<NonNullable<RequestPlan['contentType']>> {
  const json = fc.constantFrom(...JSON_TYPES).map((header) => ({ header, kind: 'json' as const }));
  if (!variants) return json;
  return fc.oneof(
    { weight: 4, arbitrary: json },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...ODD_JSON_TYPES)
        .map((header) => ({ header, kind: 'odd' as const })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...OTHER_TYPES)
        .map((header) => ({ header, kind: 'other' as const })),
    },
  );
}

const encodingFor = fc.record({
  header: fc.constantFrom(
    'gzip',
    'deflate',
    'br',
    'identity',
    'x-custom',
    'gzip, identity',
    'GZIP',
  ),
  compress: fc.boolean(),
});

const acceptFor = fc.oneof(
  fc
    .constantFrom('application/json', '*/*', 'application/*', 'application/json; q=1', '*/*;q=0.1')
    .map((header) => ({ header, json: true })),
  fc
    .constantFrom(
      'text/html',
      'application/xml',
      'text/plain',
      'image/png',
      '',
      'application/json;q=0',
    )
    .map((header) => ({ header, json: false })),
);

function controlFor(env: Environment): fc.Arbitrary<NonNullable<RequestPlan['control']>> {
  const documented = [...new Set(env.model.operations.flatMap((op) => [...op.responses.keys()]))];
  const prefer = fc.oneof(
    fc.constantFrom(...documented, 200, 204, 418, 500, 999, 0).map((code) => `code=${code}`),
    fc.constantFrom(
      'code=',
      'code=abc',
      'return=minimal',
      'code=404, code=400',
      'code=4O4',
      `code=${'9'.repeat(400)}`,
    ),
  );
  const scenario = fc.constantFrom(...env.scenarioNames, 'nope', '../etc', 'x'.repeat(300));
  return fc.oneof(
    prefer.map((value) => ({ name: 'Prefer', value })),
    scenario.map((value) => ({ name: 'X-Mock-Scenario', value })),
  );
}

// ---------------------------------------------------------------- plans

const carriesBody = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

function planForOperation(
  env: Environment,
  op: OperationModel,
  knobs: Knobs,
): fc.Arbitrary<RequestPlan> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const mutate =
    knobs.anyMethod === true ||
    knobs.rawPaths === true ||
    knobs.mediaVariants === true ||
    knobs.control === true;
  const params: Record<string, fc.Arbitrary<PathParam>> = {};
  for (const param of pathParams) params[param.name] = pathParamFor(param);
  const body = op.requestBody
    ? fc.option(bodyFor(env.model, op.requestBody.schema, env.bodyLimit), {
        freq: 30,
        nil: undefined,
      })
    : fc.constant(undefined);
  return fc
    .record({
      method: knobs.anyMethod
        ? fc.oneof(
            { weight: 5, arbitrary: fc.constant(op.method) },
            { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
          )
        : fc.constant(op.method),
      params: fc.record(params),
      query: queryFor(env.model, op, true),
      auth: authFor(env.token, knobs.authVariants === true),
      session: sessionFor(env.sessionIds, knobs.sessions === true),
      contentType: contentTypeFor(knobs.mediaVariants === true),
      encoding: knobs.mediaVariants
        ? fc.option(encodingFor, { freq: 5, nil: undefined })
        : fc.constant(undefined),
      accept: knobs.mediaVariants
        ? fc.option(acceptFor, { freq: 3, nil: undefined })
        : fc.constant(undefined),
      control: knobs.control
        ? fc.option(controlFor(env), { freq: 6, nil: undefined })
        : fc.constant(undefined),
      body,
    })
    .map((r): RequestPlan => {
      const withBody = carriesBody(r.method) && r.body !== undefined;
      return {
        method: r.method,
        target: { kind: 'operation', template: op.template, params: r.params },
        // Operations with a body get a query only when the property mutates more than bodies.
        query:
          mutate || op.requestBody === undefined
            ? r.query
            : { text: '', verdict: 'valid', given: {} },
        auth: r.auth,
        session: r.session,
        contentType: withBody ? r.contentType : undefined,
        encoding: withBody ? r.encoding : undefined,
        accept: r.accept,
        control: r.control,
        body: withBody ? r.body : undefined,
      };
    });
}

function planForRawPath(env: Environment, knobs: Knobs): fc.Arbitrary<RequestPlan> {
  return fc
    .record({
      method: fc.oneof(fc.constant('GET'), fc.constantFrom(...METHODS)),
      target: rawTarget(env.model),
      auth: authFor(env.token, knobs.authVariants === true),
      session: sessionFor(env.sessionIds, knobs.sessions === true),
      query: fc.constantFrom('', 'limit=1', '__proto__=1', `x=${'y'.repeat(2000)}`),
    })
    .map((r): RequestPlan => ({
      method: r.method,
      target: r.target,
      query: { text: r.query, verdict: r.query === '' ? 'valid' : 'unknown', given: {} },
      auth: r.auth,
      session: r.session,
    }));
}

/** Requests for the operations a property covers, mutated as its knobs say. */
export function requestPlan(env: Environment, knobs: Knobs): fc.Arbitrary<RequestPlan> {
  const ops = env.model.operations.filter(
    (op) => knobs.operations === undefined || knobs.operations.includes(op.operationId),
  );
  const plans = ops.map((op) => planForOperation(env, op, knobs));
  if (knobs.rawPaths) plans.push(planForRawPath(env, knobs));
  const [first, ...rest] = plans;
  if (!first) throw new Error('no operation matches the knobs');
  return fc.oneof(first, ...rest);
}
