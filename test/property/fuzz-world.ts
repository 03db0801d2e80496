/**
 * One app under fuzzing: sends generated requests to it over a real socket (port 0), checks every
 * response against the contract and the product's rules, and keeps a model of what each session's
 * store must hold, so that statuses and bodies can be predicted.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { isInteger, parse } from 'lossless-json';
import request from 'supertest';
import type { Test } from 'supertest';
import { BODY_LIMIT } from '../../src/api/app.js';
import type { Pet } from '../../src/state/pet.js';
import {
  AUTH,
  contract,
  createTestApp,
  isLive,
  shippedScenarios,
  type TestApp,
} from '../helpers/test-app.js';
import { isNode, matchTemplate, readContractModel, type OperationModel } from './contract-model.js';
import type { Environment, Method, RequestPlan } from './request-arbitraries.js';
import { ResponseOracle } from './response-oracle.js';
import { bodyBytes, exactValue, type Verdict } from './value-arbitraries.js';

/** What a property run saw. */
export interface FuzzStats {
  requests: number;
  serverErrors: number;
  readonly byStatus: Map<number, number>;
  /** Behaviour the contract does not settle, worth a look (counted, not failed). */
  readonly notes: Map<string, number>;
}

/** A pet as the model knows it: its fields, and the exact text of its 201 when it was created. */
interface KnownPet {
  readonly fields: Readonly<Record<string, string | bigint>>;
  readonly text?: string;
}

/** What the model knows of one session's store. */
class StoreModel {
  readonly pets = new Map<bigint, KnownPet>();
  maxId: bigint;

  constructor(initial: readonly Pet[]) {
    this.maxId = 0n;
    for (const pet of initial) {
      const fields: Record<string, string | bigint> = {
        name: pet.name,
        categoryId: BigInt(pet.categoryId),
      };
      if (pet.status !== undefined) fields.status = pet.status;
      const id = BigInt(pet.id);
      this.pets.set(id, { fields });
      if (id > this.maxId) this.maxId = id;
    }
  }
}

const TIMEOUT_MS = 10_000;
const MAX_MESSAGE = 1000;
const DEFAULT_SESSION = '';

function bytesOf(limit: string): number {
  const match = /^(\d+)(b|kb|mb)$/i.exec(limit);
  if (!match) throw new Error(`unreadable body limit ${limit}`);
  const unit = (match[2] ?? 'b').toLowerCase();
  return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
}

/** JSON.parse that keeps every integer exact (as a bigint). */
export function parseExact(text: string): unknown {
  return parse(text, null, (value) => (isInteger(value) ? BigInt(value) : Number(value)));
}

/** Own keys of the built-in prototypes, and whether a fresh object sees a `polluted` property. */
export function prototypeSnapshot(): string {
  const prototypes: object[] = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Boolean.prototype,
    RegExp.prototype,
    Promise.prototype,
  ];
  const probe: Record<string, unknown> = {};
  const keys = prototypes.map((p) => Reflect.ownKeys(p).map(String).sort().join(','));
  return [...keys, `polluted:${String(probe.polluted)}`, `in:${String('polluted' in probe)}`].join(
    '|',
  );
}

function preview(text: string, max = 400): string {
  return text.length > max
    ? `${JSON.stringify(text.slice(0, max))}… (${text.length} chars)`
    : JSON.stringify(text);
}

function compressed(bytes: Buffer, encoding: string): Buffer {
  const first = encoding.toLowerCase().split(',')[0]?.trim();
  if (first === 'gzip') return gzipSync(bytes);
  if (first === 'deflate') return deflateSync(bytes);
  if (first === 'br') return brotliCompressSync(bytes);
  return bytes;
}

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer | undefined;
  readonly sessionKey: string;
  readonly operation: OperationModel | undefined;
  /** Exact path parameter values, when they are canonical integers. */
  readonly ids: Readonly<Record<string, bigint>>;
}

interface Received {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

export class FuzzWorld {
  readonly env: Environment;
  readonly stats: FuzzStats = {
    requests: 0,
    serverErrors: 0,
    byStatus: new Map(),
    notes: new Map(),
  };
  readonly #app: TestApp;
  readonly #server: Server;
  readonly #oracle: ResponseOracle;
  readonly #stores = new Map<string, StoreModel>();
  readonly #initial: readonly Pet[];
  readonly #prototypes: string;

  private constructor(
    app: TestApp,
    server: Server,
    initial: readonly Pet[],
    sessionIds: readonly string[],
  ) {
    const model = readContractModel(contract.document);
    const token = AUTH.Authorization.replace(/^Bearer /, '');
    const scenarioNames = [...shippedScenarios.values()]
      .filter((s) => s.rules.every((rule) => rule.delay === undefined && rule.fault === undefined))
      .map((s) => s.name);
    this.env = { model, token, sessionIds, scenarioNames, bodyLimit: bytesOf(BODY_LIMIT) };
    this.#app = app;
    this.#server = server;
    this.#oracle = new ResponseOracle(model);
    this.#initial = initial;
    for (const key of [DEFAULT_SESSION, ...sessionIds])
      this.#stores.set(key, new StoreModel(initial));
    this.#prototypes = prototypeSnapshot();
  }

  /** A fresh app over `pets` (the test's own data), accepting only the test token. */
  static async open(pets: readonly Pet[], sessionIds: readonly string[] = []): Promise<FuzzWorld> {
    const token = AUTH.Authorization.replace(/^Bearer /, '');
    const app = await createTestApp({ pets, apiKeys: [token], maxSessions: 100 });
    const server = createServer(app.app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new FuzzWorld(app, server, pets, sessionIds);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }

  /** A session's pets: the initial ones while it is not live (a read of its size creates none). */
  async #storeSize(key: string): Promise<number> {
    const { state } = this.#app;
    if (key === DEFAULT_SESSION) return state.petCount();
    if (!(await isLive(state, key))) return this.#initial.length;
    return (await state.listPets(key, { limit: Number.MAX_SAFE_INTEGER })).length;
  }

  #resolve(plan: RequestPlan): Sent {
    const sessionKey = plan.session.kind === 'pool' ? (plan.session.header ?? '') : DEFAULT_SESSION;
    const store = this.#stores.get(sessionKey) ?? this.#stores.get(DEFAULT_SESSION);
    const ids: Record<string, bigint> = {};
    let path: string;
    let operation: OperationModel | undefined;
    if (plan.target.kind === 'operation') {
      const { template, params } = plan.target;
      path = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
        const param = params[name];
        if (!param) return '';
        if (param.kind === 'existing') {
          const known = [...(store?.pets.keys() ?? [])];
          const id = known[param.pick % Math.max(1, known.length)] ?? 1n;
          ids[name] = id;
          return String(id);
        }
        if (param.value !== undefined && param.verdict === 'valid') ids[name] = param.value;
        return param.text;
      });
      operation = this.env.model.operations.find(
        (op) => op.template === template && op.method === plan.method,
      );
    } else {
      path = plan.target.path;
    }
    const headers: [string, string][] = [];
    if (plan.auth.header !== undefined) headers.push(['Authorization', plan.auth.header]);
    if (plan.session.header !== undefined) headers.push(['X-Mock-Session', plan.session.header]);
    if (plan.contentType?.header !== undefined)
      headers.push(['Content-Type', plan.contentType.header]);
    if (plan.encoding) headers.push(['Content-Encoding', plan.encoding.header]);
    if (plan.accept) headers.push(['Accept', plan.accept.header]);
    if (plan.control) headers.push([plan.control.name, plan.control.value]);
    let body = plan.body && bodyBytes(plan.body);
    if (body && plan.encoding?.compress) body = compressed(body, plan.encoding.header);
    const url = plan.query.text === '' ? path : `${path}?${plan.query.text}`;
    return { method: plan.method, url, headers, body, sessionKey, operation, ids };
  }

  /** The statuses the request must get, or undefined where only the invariants apply. */
  #expected(plan: RequestPlan, sent: Sent): readonly number[] | undefined {
    if (plan.control) return undefined;
    const target = plan.target;
    if (target.kind === 'raw') {
      if (target.expect === 'outside') return [404];
      if (target.expect === 'unknown') return undefined;
    }
    if (!plan.auth.accepted) return [401];
    if (plan.session.kind === 'invalid') return [422];
    if (target.kind === 'raw') return plan.body ? undefined : [404];
    const op = sent.operation;
    if (!op) {
      return plan.body || plan.method === 'HEAD' || plan.method === 'OPTIONS' ? undefined : [405];
    }
    if (plan.accept && !plan.accept.json) return undefined;
    const verdicts: Verdict[] = [plan.query.verdict];
    for (const param of Object.values(target.params)) {
      if (param.kind === 'literal') verdicts.push(param.verdict);
    }
    if (op.requestBody) {
      if (plan.encoding) return undefined;
      const kind = plan.contentType?.kind ?? 'other';
      if (kind === 'odd') return undefined;
      if (kind === 'other' || !plan.body || !sent.body) return [400];
      if (sent.body.length > this.env.bodyLimit) return [413];
      if (plan.body.deep) return undefined;
      verdicts.push(plan.body.verdict);
    }
    const verdict = verdicts.includes('invalid')
      ? 'invalid'
      : verdicts.includes('unknown')
        ? 'unknown'
        : 'valid';
    if (verdict === 'invalid') return [400];
    if (verdict === 'unknown') return undefined;
    const pathIds = Object.values(sent.ids);
    if (pathIds.length > 0) {
      const store = this.#stores.get(sent.sessionKey);
      const exists = pathIds.every((id) => store?.pets.has(id) === true);
      if (!exists) return op.responses.has(404) ? [404] : undefined;
    }
    return [op.successStatus];
  }

  async #send(sent: Sent): Promise<Received> {
    const agent = request(this.#server);
    const calls: Record<Method, (url: string) => Test> = {
      GET: (url) => agent.get(url),
      POST: (url) => agent.post(url),
      PUT: (url) => agent.put(url),
      PATCH: (url) => agent.patch(url),
      DELETE: (url) => agent.delete(url),
      HEAD: (url) => agent.head(url),
      OPTIONS: (url) => agent.options(url),
    };
    const call = Object.entries(calls).find(([method]) => method === sent.method)?.[1];
    if (!call) throw new Error(`no supertest call for ${sent.method}`);
    let test = call(sent.url).timeout(TIMEOUT_MS).responseType('blob');
    for (const [name, value] of sent.headers) test = test.set(name, value);
    if (sent.body) {
      // A text goes through .send as it is; other bytes are written raw (superagent would
      // JSON-serialize a Buffer sent with a JSON content type).
      const text = sent.body.toString('utf8');
      if (Buffer.from(text, 'utf8').equals(sent.body)) test = test.send(text);
      else {
        test = test.set('Content-Length', String(sent.body.length));
        test.write(sent.body);
      }
    }
    const res = await test;
    const raw: unknown = res.body;
    const type: unknown = res.headers['content-type'];
    return {
      status: res.status,
      contentType: typeof type === 'string' ? type : '',
      text: Buffer.isBuffer(raw) ? raw.toString('utf8') : '',
    };
  }

  /** Sends one request and checks its response; throws a description of every problem. */
  async run(plan: RequestPlan): Promise<void> {
    const sent = this.#resolve(plan);
    const keys = [...this.#stores.keys()];
    const before = await Promise.all(keys.map((key) => this.#storeSize(key)));
    let received: Received;
    try {
      received = await this.#send(sent);
    } catch (error) {
      throw new Error(`${this.#describe(sent)}\n→ no response: ${String(error)}`);
    }
    this.stats.requests += 1;
    this.stats.byStatus.set(received.status, (this.stats.byStatus.get(received.status) ?? 0) + 1);
    if (received.status >= 500) this.stats.serverErrors += 1;

    const problems: string[] = [];
    const expected = this.#expected(plan, sent);
    if (received.status >= 500) problems.push(`a server error (${received.status})`);
    else if (expected && !expected.includes(received.status)) {
      problems.push(`expected HTTP ${expected.join(' or ')}, got ${received.status}`);
    }
    if (received.status < 200 || (received.status >= 300 && received.status < 400)) {
      problems.push(`an unexpected status ${received.status}`);
    }
    if (received.status >= 400) problems.push(...this.#checkError(sent, received));
    if (received.status >= 200 && received.status < 300) {
      problems.push(...this.#checkSuccess(plan, sent, received));
    }

    const after = await Promise.all(keys.map((key) => this.#storeSize(key)));
    const grown = keys.filter((_key, i) => (after[i] ?? 0) !== (before[i] ?? 0));
    const created = received.status === 201 ? 1 : 0;
    const growth = keys.reduce((sum, _key, i) => sum + (after[i] ?? 0) - (before[i] ?? 0), 0);
    if (
      growth !== created ||
      (created === 1 && (grown.length !== 1 || grown[0] !== sent.sessionKey))
    ) {
      problems.push(`stores grew by ${growth} (${grown.join(',') || 'none'}) for ${created} 201s`);
    }
    if (prototypeSnapshot() !== this.#prototypes) {
      problems.push(`a built-in prototype changed: ${prototypeSnapshot()}`);
    }
    if (problems.length > 0) {
      throw new Error(
        `${this.#describe(sent)}\n→ HTTP ${received.status} ${received.contentType} ${preview(received.text)}\n` +
          problems.map((p) => `  ✗ ${p}`).join('\n'),
      );
    }
  }

  #describe(sent: Sent): string {
    const headers = sent.headers
      .map(([name, value]) => `  ${name}: ${preview(value, 100)}`)
      .join('\n');
    const body = sent.body
      ? `\n  body (${sent.body.length} bytes): ${preview(sent.body.toString('utf8'), 300)}`
      : '';
    return `${sent.method} ${preview(sent.url, 300)}\n${headers}${body}`;
  }

  #checkError(sent: Sent, received: Received): string[] {
    const problems: string[] = [];
    if (!/^application\/json\b/.test(received.contentType)) {
      problems.push(`an error that is not JSON (${received.contentType || 'no content type'})`);
    }
    if (sent.method === 'HEAD') return problems;
    let body: unknown;
    try {
      body = JSON.parse(received.text);
    } catch {
      return [...problems, 'an error body that is not JSON'];
    }
    if (!isNode(body)) return [...problems, 'an error body that is not an object'];
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'code,message,status')
      problems.push(`error fields ${keys}, not code,message,status`);
    if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) {
      problems.push(`error code ${JSON.stringify(body.code)} is not a snake_case string`);
    }
    if (typeof body.message !== 'string' || body.message.trim() === '') {
      problems.push('an empty error message');
    } else if (body.message.length >= MAX_MESSAGE) {
      problems.push(`an error message of ${body.message.length} characters`);
    }
    if (body.status !== received.status) {
      problems.push(`error status ${JSON.stringify(body.status)} ≠ HTTP ${received.status}`);
    }
    const pointer = sent.operation?.responses.get(received.status);
    if (pointer)
      problems.push(...this.#oracle.check(pointer, body).map((p) => `Error schema: ${p}`));
    return problems;
  }

  #note(note: string): void {
    this.stats.notes.set(note, (this.stats.notes.get(note) ?? 0) + 1);
  }

  #checkSuccess(plan: RequestPlan, sent: Sent, received: Received): string[] {
    const op = sent.operation ?? this.#spelledDifferently(plan, sent);
    if (!op) return [`a ${received.status} for a request no operation documents`];
    if (!op.responses.has(received.status)) {
      return [`${op.operationId} does not document ${received.status}`];
    }
    if (sent.method === 'HEAD') return [];
    const pointer = op.responses.get(received.status);
    if (!/^application\/json\b/.test(received.contentType)) {
      return [`a ${received.status} that is not JSON (${received.contentType})`];
    }
    let body: unknown;
    let exact: unknown;
    try {
      body = JSON.parse(received.text);
      exact = parseExact(received.text);
    } catch (error) {
      return [`a ${received.status} body that is not JSON: ${String(error)}`];
    }
    const problems = pointer ? this.#oracle.check(pointer, body).map((p) => `schema: ${p}`) : [];
    const store = this.#stores.get(sent.sessionKey);
    if (!store) return problems;
    if (op.operationId === 'createPet')
      problems.push(...checkCreated(plan, store, exact, received.text));
    if (op.operationId === 'listPets') problems.push(...checkList(plan, op, store, exact));
    if (op.operationId === 'getPet') problems.push(...checkGot(sent, store, exact, received.text));
    return problems;
  }

  /**
   * The operation a 2xx answered when the request was not spelled as the document spells it: HEAD
   * for GET, or a path with a trailing slash (the mock serves both as the operation). Noted, and
   * still checked against that operation's schema.
   */
  #spelledDifferently(plan: RequestPlan, sent: Sent): OperationModel | undefined {
    const method = sent.method === 'HEAD' ? 'GET' : sent.method;
    const path = (sent.url.split('?', 1)[0] ?? '').replace(/(.)\/$/, '$1');
    const match = matchTemplate(this.env.model, path, true);
    const op = this.env.model.operations.find(
      (o) => o.template === match?.template && o.method === method,
    );
    const spelled = plan.target.kind === 'raw' ? plan.target.path : sent.url;
    if (op) this.#note(`${sent.method} ${spelled} answered as ${op.operationId}`);
    return op;
  }
}

function fieldsOf(value: unknown): Record<string, unknown> | undefined {
  return isNode(value) ? { ...value } : undefined;
}

/** A 201: a new, larger id; exactly the fields sent (int64 digits included); nothing else. */
function checkCreated(
  plan: RequestPlan,
  store: StoreModel,
  exact: unknown,
  text: string,
): string[] {
  const pet = fieldsOf(exact);
  if (!pet || typeof pet.id !== 'bigint') return ['a 201 without an integer id'];
  const problems: string[] = [];
  const { id, ...fields } = pet;
  if (store.pets.has(id)) problems.push(`id ${id} given twice`);
  if (id <= store.maxId) problems.push(`id ${id} is not above the largest id ${store.maxId}`);
  const known: Record<string, string | bigint> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' || typeof value === 'bigint') known[key] = value;
  }
  const sent = plan.body?.exact;
  if (sent && !plan.control) {
    const expectedKeys = Object.keys(sent).sort().join(',');
    if (Object.keys(fields).sort().join(',') !== expectedKeys) {
      problems.push(`201 fields ${Object.keys(fields).sort().join(',')}, sent ${expectedKeys}`);
    }
    for (const [key, value] of Object.entries(sent)) {
      const want = exactValue(value);
      if (fields[key] !== want) {
        problems.push(
          `201 ${key} is ${preview(String(fields[key]), 80)}, sent ${preview(String(want), 80)}`,
        );
      }
      if (typeof want === 'bigint' && !text.includes(`"${key}":${want}`)) {
        problems.push(`201 text lacks "${key}":${want}`);
      }
    }
  }
  store.pets.set(id, { fields: known, text });
  if (id > store.maxId) store.maxId = id;
  return problems;
}

/** A 200 list: ascending ids, all known; with a valid query, exactly the first `limit` matches. */
function checkList(
  plan: RequestPlan,
  op: OperationModel,
  store: StoreModel,
  exact: unknown,
): string[] {
  if (!Array.isArray(exact)) return ['a list that is not an array'];
  const ids = exact.map((item) => (isNode(item) ? item.id : undefined));
  const problems: string[] = [];
  ids.forEach((id, i) => {
    if (typeof id !== 'bigint') problems.push(`item ${i} has no integer id`);
    else if (!store.pets.has(id)) problems.push(`item ${i} has id ${id}, which no pet has`);
    const previous = ids[i - 1];
    if (i > 0 && typeof id === 'bigint' && typeof previous === 'bigint' && id <= previous) {
      problems.push(`ids not ascending at item ${i}`);
    }
  });
  if (plan.control || plan.query.verdict !== 'valid') return problems;
  const limitParam = op.parameters.find((p) => p.name === 'limit');
  const fallback =
    typeof limitParam?.schema.default === 'number' ? limitParam.schema.default : Infinity;
  const given = plan.query.given;
  const limit = given.limit === undefined ? fallback : Number(given.limit);
  const wanted = [...store.pets.entries()]
    .filter(([, pet]) => given.status === undefined || pet.fields.status === given.status)
    .map(([id]) => id)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
  if (ids.map(String).join(',') !== wanted.map(String).join(',')) {
    problems.push(
      `listed ids [${ids.map(String).join(',')}], expected [${wanted.map(String).join(',')}]`,
    );
  }
  for (const item of exact) {
    const pet = fieldsOf(item);
    const known = typeof pet?.id === 'bigint' ? store.pets.get(pet.id) : undefined;
    if (!pet || !known) continue;
    for (const [key, value] of Object.entries(known.fields)) {
      if (pet[key] !== value)
        problems.push(`listed pet ${String(pet.id)} has ${key} ${String(pet[key])}`);
    }
  }
  return problems;
}

/** A 200 get: the pet asked for, byte for byte as it was created. */
function checkGot(sent: Sent, store: StoreModel, exact: unknown, text: string): string[] {
  const pet = fieldsOf(exact);
  if (!pet || typeof pet.id !== 'bigint') return ['a pet without an integer id'];
  const asked = Object.values(sent.ids)[0];
  const problems: string[] = [];
  if (asked !== undefined && pet.id !== asked) problems.push(`asked for ${asked}, got ${pet.id}`);
  const known = store.pets.get(pet.id);
  if (!known) return [...problems, `got pet ${pet.id}, which no pet has`];
  if (known.text !== undefined && known.text !== text) {
    problems.push(`get text ${preview(text, 200)} ≠ 201 text ${preview(known.text, 200)}`);
  }
  for (const [key, value] of Object.entries(known.fields)) {
    if (pet[key] !== value) problems.push(`pet ${pet.id} has ${key} ${String(pet[key])}`);
  }
  return problems;
}
