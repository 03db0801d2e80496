import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { errorMessage } from '../util/error-message.js';
import { isInt64, type Int64 } from '../util/int64.js';
import { parseJson, stringifyJson } from '../util/json-codec.js';
import { isRecord } from '../util/is-record.js';
import { COVERAGE_LIMITS, CoverageTally, type CoveredAnswer } from './coverage-tally.js';
import type {
  ActiveScenario,
  FinishedCall,
  ListQuery,
  MockState,
  SessionId,
  SessionSummary,
  StoredItems,
  StoredPets,
  SwitchedOff,
} from './mock-state.js';
import { StateUnavailableError, journalShareOf } from './mock-state.js';
import type { Config } from '../config/settings.js';
import { findById, isPetStatus, type NewPet, type Pet, type PetStatus } from './pet.js';
import {
  journalEntryOf,
  listedEntry,
  type JournalEntry,
  type JournalRecord,
} from './request-journal.js';
import * as scripts from './redis-scripts.js';
import { argvOf, inOrder, RECORD_CALL, type ArgsOf, type RedisScript } from './redis-scripts.js';
import { checkSessionId } from './session-id.js';
import { StoreFullError, itemCost, petCost } from './store-limits.js';
import { placeId, type Created, type Item, type ItemPlace, type NewKey } from './item.js';
import { seededItem, type ItemSeeds } from './item-seeds.js';
import { createItemArgs, itemOf, orderCode, seedTail } from './redis-items.js';
import type { StoreSnapshot } from './store-data.js';
import { truncate } from '../util/quote-text.js';

/** The settings the Redis state takes from the Config (docs/replicas.md), by name. */
export type RedisSettings = Pick<
  Config,
  | 'statePrefix'
  | 'stateTimeout'
  | 'sessionTtl'
  | 'maxSessions'
  | 'maxPets'
  | 'maxStoreBytes'
  | 'journalSize'
  | 'journalBytes'
> & {
  /** redis://[user:password@]host:port[/db], or rediss:// for TLS. */
  readonly stateUrl: string;
};

export interface RedisStateOptions {
  /** The Config, or what of it the Redis state reads. */
  readonly settings: RedisSettings;
  readonly initial: StoreSnapshot;
  /** The scenario on at the start and after each reset, by name. */
  readonly startupScenario: string | undefined;
  /** What every replica on the prefix must share: field -> value (contract, initial data). */
  readonly identity: Readonly<Record<string, string>>;
  /** Told of each round trip to Redis, and of each that failed (metrics). */
  readonly onRoundTrip?: ((failed: boolean) => void) | undefined;
  /** Told of records dropped because Redis could not take them. */
  readonly onLostRecords?: ((count: number, error: unknown) => void) | undefined;
}

/** The prefix already holds another mock's contract or data: this one must not share it. */
export class PrefixTakenError extends Error {
  override name = 'PrefixTakenError';
}

/** Records are sent in batches of at most this many calls, at most this long after the first. */
const RECORD_BATCH = 100;
const RECORD_DELAY_MS = 5;

/** A Lua script run by its SHA1, sent whole only when Redis does not have it yet (NOSCRIPT). */
class LuaScript<Name extends string, Tail extends boolean> {
  readonly script: RedisScript<Name, Tail>;
  readonly #sha: string;

  constructor(script: RedisScript<Name, Tail>) {
    this.script = script;
    this.#sha = createHash('sha1').update(script.lua).digest('hex');
  }

  async run(redis: Redis, argv: readonly string[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, 0, ...argv);
    } catch (error) {
      // Redis's error replies start with their code: a restarted Redis has no scripts.
      if (!errorMessage(error).startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.script.lua, 0, ...argv);
    }
  }
}

const SCRIPTS = {
  beginCall: new LuaScript(scripts.BEGIN_CALL),
  createPet: new LuaScript(scripts.CREATE_PET),
  reset: new LuaScript(scripts.RESET),
  setSwitch: new LuaScript(scripts.SET_SWITCH),
  active: new LuaScript(scripts.ACTIVE),
  sessions: new LuaScript(scripts.SESSIONS),
  journal: new LuaScript(scripts.JOURNAL),
  coverage: new LuaScript(scripts.COVERAGE),
  clearCoverage: new LuaScript(scripts.CLEAR_COVERAGE),
  record: new LuaScript(scripts.RECORD),
  claimPrefix: new LuaScript(scripts.CLAIM_PREFIX),
  storedPets: new LuaScript(scripts.STORED_PETS),
  storedItems: new LuaScript(scripts.STORED_ITEMS),
  switchOff: new LuaScript(scripts.SWITCH_OFF),
  resetAll: new LuaScript(scripts.RESET_ALL),
  listItems: new LuaScript(scripts.LIST_ITEMS),
  getItem: new LuaScript(scripts.GET_ITEM),
  createItem: new LuaScript(scripts.CREATE_ITEM),
  replaceItem: new LuaScript(scripts.REPLACE_ITEM),
  deleteItem: new LuaScript(scripts.DELETE_ITEM),
} as const;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The URL without its credentials, for messages and logs. */
function describe(url: string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

/** The key form of a session: '' for the default one; a named one's id checked first. */
function sid(session: SessionId): string {
  if (session === undefined) return '';
  checkSessionId(session);
  return session;
}

/** A pet as Redis keeps it: JSON with int64 digits exact. */
function petOf(json: string): Pet {
  const value = parseJson(json);
  if (
    !isRecord(value) ||
    !isInt64(value.id) ||
    typeof value.name !== 'string' ||
    !isInt64(value.categoryId)
  ) {
    throw new Error(`not a pet: ${truncate(json, 80)}`);
  }
  const pet: Pet = { id: value.id, name: value.name, categoryId: value.categoryId };
  if (isPetStatus(value.status)) pet.status = value.status;
  return pet;
}

/** The first `limit` pets (of a status, if given), scanning no further than needed. */
function firstOf(pets: readonly Pet[], limit: number, status: PetStatus | undefined): Pet[] {
  if (status === undefined) return pets.slice(0, limit);
  const found: Pet[] = [];
  for (const pet of pets) {
    if (found.length === limit) break;
    if (pet.status === status) found.push(pet);
  }
  return found;
}

/** The counts of a coverage as Redis keeps them (redis-scripts.ts RECORD), as a tally. */
function tallyOf(fields: string[], unmatched: string[], inherited: string[]): CoverageTally {
  const tally = new CoverageTally();
  const counts = new Map<string, { count: number; forced: number; violations: number }>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const field = fields[i] ?? '';
    const value = Number(fields[i + 1]);
    const kind = field.slice(0, 2);
    const rest = field.slice(2);
    if (kind === 'n|') {
      tally.addNoAnswer(rest, value);
      continue;
    }
    const pair = counts.get(rest) ?? { count: 0, forced: 0, violations: 0 };
    if (kind === 'c|') pair.count = value;
    if (kind === 'f|') pair.forced = value;
    if (kind === 'v|') pair.violations = value;
    counts.set(rest, pair);
  }
  for (const [pair, count] of counts) {
    const at = pair.lastIndexOf('|');
    tally.addStatus(pair.slice(0, at), Number(pair.slice(at + 1)), count);
  }
  const inheritedOf = new Map<string, number>();
  for (let i = 0; i + 1 < inherited.length; i += 2) {
    inheritedOf.set(inherited[i] ?? '', Number(inherited[i + 1]));
  }
  for (let i = 0; i + 1 < unmatched.length; i += 2) {
    const key = unmatched[i] ?? '';
    const space = key.indexOf(' ');
    const count = Number(unmatched[i + 1]) - (inheritedOf.get(key) ?? 0);
    tally.addUnmatched(key.slice(0, space), key.slice(space + 1), count);
  }
  return tally;
}

/** A finished call's coverage as RECORD takes it (redis-scripts.ts RECORD_CALL). */
function coverageArgs(
  answer: CoveredAnswer,
): ArgsOf<'kind' | 'operation' | 'status' | 'forced' | 'broke'> {
  if (answer.kind === 'unmatched') {
    const method = truncate(answer.method, COVERAGE_LIMITS.method);
    const path = truncate(answer.path, COVERAGE_LIMITS.path);
    return { kind: 'unm', operation: `${method} ${path}`, status: '', forced: '', broke: '' };
  }
  return {
    kind: 'op',
    operation: answer.operationId,
    status: answer.status === null ? '' : String(answer.status),
    forced: answer.forced ? '1' : '0',
    broke: answer.brokeContract ? '1' : '0',
  };
}

/**
 * The state of every replica on one prefix of one Redis. The initial data stays in each process
 * (every replica has the same: the prefix says which); Redis keeps what sessions add and change.
 * A request's path makes at most two round trips (beginCall, one pet call); reading the initial
 * pets makes none. An item call makes one, a write two the first time its session writes to the
 * place (the second brings the place's seeded items, computed in this process, to copy). Records
 * are sent after the answer, batched. While Redis is away every call fails at once or within the
 * timeout with StateUnavailableError; the client reconnects by itself.
 */
export class RedisState implements MockState {
  readonly kind = 'redis' as const;
  readonly #redis: Redis;
  readonly #options: RedisStateOptions;
  readonly #where: string;
  /** The initial data: the same on every replica on the prefix; a reload changes it. */
  #initial: StoreSnapshot;
  #initialNext: string;
  #pending: string[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  private constructor(redis: Redis, options: RedisStateOptions) {
    this.#redis = redis;
    this.#options = options;
    this.#where = describe(options.settings.stateUrl);
    this.#initial = options.initial;
    this.#initialNext = String(options.initial.nextId);
  }

  /**
   * Connects, and claims the prefix for this mock's contract and data: a prefix that holds
   * another's is refused (PrefixTakenError, naming each difference).
   */
  static async connect(options: RedisStateOptions): Promise<RedisState> {
    const { stateUrl, stateTimeout } = options.settings;
    const redis = new Redis(stateUrl, {
      lazyConnect: true,
      // While Redis is away a call fails at once (503) instead of waiting in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: stateTimeout,
      connectTimeout: stateTimeout,
      // Reconnects by itself, at most a second apart, for as long as it runs.
      retryStrategy: (times) => Math.min(times * 100, 1000),
      // Calls made in the same tick go out as one write (pipelining, as the client does it).
      enableAutoPipelining: true,
      connectionName: 'petstore-mock',
    });
    // Errors also reach the calls that failed; without a listener they would crash the process.
    redis.on('error', () => undefined);
    const state = new RedisState(redis, options);
    try {
      await redis.connect();
      await state.#claimPrefix();
    } catch (error) {
      redis.disconnect();
      if (error instanceof PrefixTakenError) throw error;
      // At start the process is the one to try again (compose's restart, Kubernetes): one line
      // with the client's words, as any other failure to start.
      const said = error instanceof StateUnavailableError ? error.storeSaid : errorMessage(error);
      throw new Error(
        `the state store ${state.#where} cannot be used: ${said.replace(/\.+$/, '')}`,
      );
    }
    return state;
  }

  async #claimPrefix(): Promise<void> {
    const pairs = Object.entries(this.#options.identity).flat();
    const differences = await this.#run(SCRIPTS.claimPrefix, {}, pairs);
    if (!isStringArray(differences) || differences.length === 0) return;
    const named: string[] = [];
    for (let i = 0; i + 1 < differences.length; i += 2) {
      const field = differences[i] ?? '';
      named.push(
        `${field}: it holds ${differences[i + 1] ?? ''}, this mock has ${this.#options.identity[field] ?? ''}`,
      );
    }
    throw new PrefixTakenError(
      `--state-prefix ${this.#options.settings.statePrefix} on ${this.#where} holds another mock's state (${named.join('; ')}); start with the same data and contract, or another --state-prefix`,
    );
  }

  /**
   * Runs a script with the prefix first, then its named arguments in its order, then its tail (a
   * script without one takes none); a failure to reach Redis is StateUnavailableError.
   */
  async #run<Name extends string, Tail extends boolean>(
    script: LuaScript<Name, Tail>,
    args: NoInfer<ArgsOf<Name>>,
    ...tail: NoInfer<Tail> extends true ? [tail: readonly string[]] : []
  ): Promise<unknown> {
    // The records of calls already answered go out first, on the same connection, which keeps
    // the order: Redis applies them before this script, as the memory state recorded them before
    // the next call (a reset then empties their journal; a session they used is not the newest).
    if (script.script !== scripts.RECORD) void this.#flush();
    try {
      const argv = [this.#options.settings.statePrefix, ...argvOf(script.script, args, tail[0])];
      const result = await script.run(this.#redis, argv);
      this.#options.onRoundTrip?.(false);
      return result;
    } catch (error) {
      this.#options.onRoundTrip?.(true);
      throw new StateUnavailableError(this.#where, errorMessage(error));
    }
  }

  /** A plain command, counted and mapped like a script. */
  async #call<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      const result = await command(this.#redis);
      this.#options.onRoundTrip?.(false);
      return result;
    } catch (error) {
      this.#options.onRoundTrip?.(true);
      throw new StateUnavailableError(this.#where, errorMessage(error));
    }
  }

  #key(session: string, name: string): string {
    return `${this.#options.settings.statePrefix}s{${session}}:${name}`;
  }

  /** What the scripts that open a session take besides its id. */
  #openArgs(): ArgsOf<'sessionTtl' | 'maxSessions'> {
    return {
      sessionTtl: String(this.#options.settings.sessionTtl),
      maxSessions: String(this.#options.settings.maxSessions),
    };
  }

  async beginCall(
    session: SessionId,
    take: readonly string[] | undefined,
  ): Promise<string | undefined> {
    const taken = await this.#run(
      SCRIPTS.beginCall,
      {
        sid: sid(session),
        ...this.#openArgs(),
        startupScenario: this.#options.startupScenario ?? '',
        take: take ? '1' : '0',
      },
      take ?? [],
    );
    return typeof taken === 'string' ? taken : undefined;
  }

  async listPets(
    session: SessionId,
    { limit, status }: ListQuery,
    initial = this.#initial.pets,
  ): Promise<Pet[]> {
    const found = firstOf(initial, limit, status);
    if (found.length === limit) return found;
    const key = this.#key(sid(session), status === undefined ? 'pets' : `st:${status}`);
    const own = await this.#call((redis) => redis.lrange(key, 0, limit - found.length - 1));
    return found.concat(own.map(petOf));
  }

  async getPet(
    session: SessionId,
    id: Int64,
    initial = this.#initial.pets,
  ): Promise<Pet | undefined> {
    const first = findById(initial, id);
    if (first) return first;
    const key = this.#key(sid(session), 'byid');
    const json = await this.#call((redis) => redis.hget(key, String(id)));
    return json === null ? undefined : petOf(json);
  }

  async createPet(session: SessionId, newPet: NewPet): Promise<Pet> {
    const pet: Pet = { id: 0, name: newPet.name, categoryId: newPet.categoryId };
    if (newPet.status !== undefined) pet.status = newPet.status;
    // The JSON after `{"id":0,`, and the charge but for the id's one digit (the script adds the
    // real id's): the same bytes as the memory store charges.
    const rest = stringifyJson(pet).slice('{"id":0,'.length);
    const result = await this.#run(SCRIPTS.createPet, {
      sid: sid(session),
      ...this.#openArgs(),
      initialNextId: this.#initialNext,
      maxPets: String(this.#options.settings.maxPets),
      maxStoreBytes: String(this.#options.settings.maxStoreBytes),
      petJsonAfterId: rest,
      costWithoutId: String(petCost(pet) - 1),
      status: newPet.status ?? '',
    });
    if (!isStringArray(result)) throw new Error('createPet: an answer of the wrong shape');
    const [outcome, detail = ''] = result;
    this.#refuseWhenFull(outcome, detail);
    return petOf(detail);
  }

  async listItems(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
  ): Promise<readonly Item[]> {
    const own = await this.#run(SCRIPTS.listItems, { sid: sid(session), place: placeId(place) });
    if (!isStringArray(own)) return seeds.itemsOf(place);
    return own.map(itemOf);
  }

  async getItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
  ): Promise<Item | undefined> {
    const found = await this.#run(SCRIPTS.getItem, {
      sid: sid(session),
      place: placeId(place),
      order: orderCode(key),
    });
    if (isStringArray(found)) return found[0] === undefined ? undefined : itemOf(found[0]);
    return seededItem(seeds, place, key);
  }

  async createItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    item: Item,
    key: NewKey,
  ): Promise<Created> {
    const args = {
      sid: sid(session),
      ...this.#openArgs(),
      place: placeId(place),
      resource: place.resource,
      firstCounter: String(seeds.firstCounter(place.resource)),
      ...createItemArgs(item, key),
      maxPets: String(this.#options.settings.maxPets),
      maxStoreBytes: String(this.#options.settings.maxStoreBytes),
    };
    const [outcome, detail = ''] = await this.#writeItems(seeds, place, (tail) =>
      this.#run(SCRIPTS.createItem, { ...args, seeded: tail ? '1' : '0' }, tail ?? []),
    );
    if (outcome === 'taken') return { taken: detail };
    this.#refuseWhenFull(outcome, detail);
    return { item: itemOf(detail) };
  }

  async replaceItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
    item: Item,
  ): Promise<boolean> {
    const args = {
      sid: sid(session),
      ...this.#openArgs(),
      place: placeId(place),
      order: orderCode(key),
      json: stringifyJson(item),
      cost: String(itemCost(item)),
      maxStoreBytes: String(this.#options.settings.maxStoreBytes),
    };
    const [outcome, detail = ''] = await this.#writeItems(seeds, place, (tail) =>
      this.#run(SCRIPTS.replaceItem, { ...args, seeded: tail ? '1' : '0' }, tail ?? []),
    );
    this.#refuseWhenFull(outcome, detail);
    return outcome === 'ok';
  }

  async deleteItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
  ): Promise<boolean> {
    const args = {
      sid: sid(session),
      ...this.#openArgs(),
      place: placeId(place),
      order: orderCode(key),
    };
    const [outcome] = await this.#writeItems(seeds, place, (tail) =>
      this.#run(SCRIPTS.deleteItem, { ...args, seeded: tail ? '1' : '0' }, tail ?? []),
    );
    return outcome === 'ok';
  }

  /**
   * Runs a script that writes to a place, without its seeded items; if the session has no copy
   * of the place yet (the script answers 'seeds', having changed nothing), once more with them.
   * Seeds are sent only then: a place's first write takes two round trips, the others one.
   */
  async #writeItems(
    seeds: ItemSeeds,
    place: ItemPlace,
    write: (tail: readonly string[] | undefined) => Promise<unknown>,
  ): Promise<string[]> {
    let result = await write(undefined);
    if (isStringArray(result) && result[0] === 'seeds') {
      result = await write(await seedTail(seeds, place));
    }
    if (!isStringArray(result) || result[0] === 'seeds') {
      throw new Error('an item write: an answer of the wrong shape');
    }
    return result;
  }

  /** A script's refusal over a budget as StoreFullError (nothing was stored, no key used). */
  #refuseWhenFull(outcome: string | undefined, detail: string): void {
    if (outcome === 'full-pets') throw StoreFullError.ofPets(this.#options.settings.maxPets);
    if (outcome === 'full-bytes') {
      throw StoreFullError.ofBytes(Number(detail), this.#options.settings.maxStoreBytes);
    }
  }

  recordCall({ session, authenticated, journal, coverage }: FinishedCall): void {
    // A malformed id cannot name a live session: recorded in the default one, as in memory.
    let target = '';
    try {
      target = sid(session);
    } catch {
      authenticated = false;
    }
    const entry = journalEntryOf(journal, journalShareOf(this.#options.settings));
    this.#pending.push(
      ...inOrder(RECORD_CALL, {
        sid: target,
        authenticated: authenticated ? '1' : '0',
        cost: entry ? String(entry.cost) : '',
        entry: entry ? JSON.stringify(entry.record) : '',
        ...coverageArgs(coverage),
      }),
    );
    if (this.#pending.length >= RECORD_BATCH * scripts.RECORD_ARITY) {
      void this.#flush();
    } else {
      this.#flushTimer ??= setTimeout(() => void this.#flush(), RECORD_DELAY_MS);
    }
  }

  /** Sends what is pending; resolves once everything recorded before it is in Redis (or lost). */
  #flush(): Promise<void> {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return this.#flushing;
    const o = this.#options;
    const sent = this.#run(
      SCRIPTS.record,
      {
        ...this.#openArgs(),
        journalSize: String(o.settings.journalSize),
        journalShare: String(journalShareOf(o.settings)),
        maxUnmatched: String(COVERAGE_LIMITS.unmatched),
      },
      batch,
    ).then(
      () => undefined,
      (error: unknown) => {
        o.onLostRecords?.(batch.length / scripts.RECORD_ARITY, error);
      },
    );
    this.#flushing = this.#flushing.then(() => sent);
    return this.#flushing;
  }

  async reset(session: SessionId): Promise<void> {
    await this.#run(SCRIPTS.reset, { sid: sid(session), ...this.#openArgs() });
  }

  async activate(session: SessionId, scenario: string, times?: number): Promise<void> {
    const remaining = times === undefined ? '' : String(times);
    await this.#run(SCRIPTS.setSwitch, {
      sid: sid(session),
      ...this.#openArgs(),
      scenario,
      remaining,
    });
  }

  async deactivate(session: SessionId): Promise<void> {
    await this.#run(SCRIPTS.setSwitch, {
      sid: sid(session),
      ...this.#openArgs(),
      scenario: '',
      remaining: '',
    });
  }

  async active(session: SessionId): Promise<ActiveScenario | null> {
    const result = await this.#run(SCRIPTS.active, {
      sid: sid(session),
      startupScenario: this.#options.startupScenario ?? '',
    });
    if (!isStringArray(result)) return null;
    const [name = '', remaining = ''] = result;
    return { name, remaining: remaining === '' ? null : Number(remaining) };
  }

  async sessions(): Promise<SessionSummary[]> {
    await this.#flush();
    const result = await this.#run(SCRIPTS.sessions, {
      startupScenario: this.#options.startupScenario ?? '',
    });
    if (!isStringArray(result)) return [];
    const summaries: SessionSummary[] = [];
    for (let i = 0; i + 2 < result.length; i += 3) {
      const [id = '', name = '', remaining = ''] = result.slice(i, i + 3);
      summaries.push({
        id: i === 0 ? null : id,
        active:
          name === '' ? null : { name, remaining: remaining === '' ? null : Number(remaining) },
      });
    }
    return summaries;
  }

  async journal(session: SessionId, limit: number): Promise<JournalEntry[]> {
    await this.#flush();
    const result = await this.#run(SCRIPTS.journal, { sid: sid(session), limit: String(limit) });
    if (!isStringArray(result)) return [];
    return result.flatMap((item) => {
      const value: unknown = JSON.parse(item.slice(item.indexOf('|') + 1));
      return isJournalRecord(value) ? [listedEntry(value)] : [];
    });
  }

  async coverage(of: { suite: true } | { session: string }): Promise<CoverageTally | undefined> {
    await this.#flush();
    const result = await this.#run(SCRIPTS.coverage, {
      sid: 'suite' in of ? '' : sid(of.session),
    });
    if (!Array.isArray(result)) return undefined;
    const parts: unknown[] = result;
    const [fields, unmatched, inherited] = parts.map((part) => (isStringArray(part) ? part : []));
    return tallyOf(fields ?? [], unmatched ?? [], inherited ?? []);
  }

  async clearCoverage(session: string | undefined): Promise<void> {
    await this.#flush();
    await this.#run(SCRIPTS.clearCoverage, { sid: session === undefined ? '' : sid(session) });
  }

  async storedItems(): Promise<StoredItems[]> {
    const result = await this.#run(SCRIPTS.storedItems, {});
    if (!Array.isArray(result)) return [];
    const entries: unknown[] = result;
    return entries.flatMap((entry) => {
      if (!Array.isArray(entry)) return [];
      const parts: unknown[] = entry;
      const [session, place, items] = parts;
      if (typeof session !== 'string' || typeof place !== 'string' || !isStringArray(items)) {
        return [];
      }
      return [{ session: session === '' ? null : session, place, items: items.map(itemOf) }];
    });
  }

  async storedPets(): Promise<StoredPets[]> {
    const result = await this.#run(SCRIPTS.storedPets, {});
    if (!Array.isArray(result)) return [];
    const entries: unknown[] = result;
    return entries.flatMap((entry) => {
      if (!Array.isArray(entry)) return [];
      const parts: unknown[] = entry;
      const [session, pets] = parts;
      if (typeof session !== 'string' || !isStringArray(pets)) return [];
      return [{ session: session === '' ? null : session, pets: pets.map(petOf), layered: true }];
    });
  }

  async rebase(initial: StoreSnapshot, identity: Readonly<Record<string, string>>): Promise<void> {
    // What replicas started later must serve; those running serve theirs until they reload.
    const fields = Object.entries(identity).flat();
    if (fields.length > 0) {
      await this.#call((redis) =>
        redis.hset(`${this.#options.settings.statePrefix}meta`, ...fields),
      );
    }
    this.#initial = initial;
    this.#initialNext = String(initial.nextId);
  }

  async switchOff(known: readonly string[]): Promise<SwitchedOff[]> {
    const result = await this.#run(
      SCRIPTS.switchOff,
      { startupScenario: this.#options.startupScenario ?? '' },
      known,
    );
    if (!isStringArray(result)) return [];
    const off: SwitchedOff[] = [];
    for (let i = 0; i + 1 < result.length; i += 2) {
      const session = result[i] ?? '';
      off.push({ session: session === '' ? null : session, scenario: result[i + 1] ?? '' });
    }
    return off;
  }

  async resetAll(): Promise<void> {
    await this.#run(SCRIPTS.resetAll, {});
  }

  async petCount(): Promise<number> {
    const own = await this.#call((redis) => redis.llen(this.#key('', 'pets')));
    return this.#initial.pets.length + own;
  }

  async health(): Promise<void> {
    await this.#call((redis) => redis.ping());
  }

  async close(): Promise<void> {
    await this.#flush();
    // quit() waits for Redis's answer: while Redis is away or frozen, let go of it at once.
    if (this.#redis.status === 'ready') {
      const quit = this.#redis.quit().catch(() => undefined);
      const given = new Promise<void>((resolve) => {
        setTimeout(resolve, this.#options.settings.stateTimeout).unref();
      });
      await Promise.race([quit, given]);
    }
    this.#redis.disconnect();
  }
}

/** A journal entry as RECORD keeps it (written by recordCall from a kept JournalRecord). */
function isJournalRecord(value: unknown): value is JournalRecord {
  return (
    isRecord(value) &&
    typeof value.time === 'number' &&
    typeof value.requestId === 'string' &&
    typeof value.method === 'string' &&
    typeof value.path === 'string' &&
    typeof value.query === 'string' &&
    (typeof value.operationId === 'string' || value.operationId === null) &&
    (typeof value.status === 'number' || value.status === null) &&
    (typeof value.scenario === 'string' || value.scenario === null) &&
    isStringArray(value.validationErrors)
  );
}
