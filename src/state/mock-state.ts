import type { Config } from '../config/settings.js';
import type { Int64 } from '../util/int64.js';
import { Refusal } from '../util/refusal.js';
import type { CoveredAnswer, CoverageTally } from './coverage-tally.js';
import type { NewPet, Pet, PetStatus } from './pet.js';
import type { Created, Item, ItemPlace, NewKey } from './item.js';
import type { ItemSeeds } from './item-seeds.js';
import type { StoreSnapshot } from './store-data.js';
import type { JournalEntry, JournalRecord } from './request-journal.js';

/** The query of listPets, after validation and defaults. */
export interface ListQuery {
  limit: number;
  status?: PetStatus;
}

/** A session as the state names it: an X-Mock-Session value, or undefined for the default one. */
export type SessionId = string | undefined;

/** A session's scenario switch: which scenario is on, and for how many more matching requests. */
export interface ActiveScenario {
  readonly name: string;
  /** null: until switched off. */
  readonly remaining: number | null;
}

/** A live session, as the admin API lists it. */
export interface SessionSummary {
  /** null for the default session. */
  readonly id: string | null;
  readonly active: ActiveScenario | null;
}

/** Where a finished request is recorded, and what it was. */
export interface FinishedCall {
  readonly session: SessionId;
  /**
   * Whether it passed auth: then it is recorded in its session, created if new. Otherwise (a 401)
   * in the session it names if that one is live, else in the default one, creating none.
   */
  readonly authenticated: boolean;
  readonly journal: JournalRecord;
  readonly coverage: CoveredAnswer;
}

/** The pets one session keeps besides the initial data, for a reload's checks. */
export interface StoredPets {
  /** null for the default session. */
  readonly session: string | null;
  readonly pets: readonly Pet[];
  /**
   * True where they sit after the initial data (their ids above its ids); false where they are
   * the whole store (the --db file, which wins over the initial data until a reset).
   */
  readonly layered: boolean;
}

/** The items one session keeps in one place it has written to, for a reload's checks. */
export interface StoredItems {
  /** null for the default session. */
  readonly session: string | null;
  /** The place's id (item.ts placeId): its resource, and its parents' keys. */
  readonly place: string;
  readonly items: readonly Item[];
}

/** A scenario switch turned off because its scenario is gone. */
export interface SwitchedOff {
  readonly session: string | null;
  readonly scenario: string;
}

/** Which backend keeps the state. */
export type StateKind = 'memory' | 'file' | 'redis';

/**
 * The state store cannot be used (Redis away, too slow, or refusing writes): 503, and the client
 * may try again soon. The message says it in the mock's words; `storeSaid`, the Redis client's
 * own, goes to the log only.
 */
export class StateUnavailableError extends Refusal {
  override name = 'StateUnavailableError';

  constructor(
    store: string,
    readonly storeSaid: string,
  ) {
    super(
      503,
      'state_unavailable',
      `The mock's state store (${store}) cannot be used right now, so no pet, session or scenario can be read or changed. Try again in a moment; if it lasts, check that Redis runs at that address and accepts writes (the mock's log says why).`,
      {
        'Retry-After': '1',
      },
    );
  }
}

/**
 * Everything the mock remembers, behind one asynchronous seam: each session's pets and id
 * counter, the sessions and their expiry, scenario switches with their remaining counts, each
 * session's journal, coverage, and the budgets. Three backends keep the same promises: in memory
 * (the default), the lowdb file (--db), Redis (--state-url). The request steps and the admin API
 * speak only to this.
 *
 * A pet API request makes at most two calls before its answer (beginCall, then one pet call);
 * what it leaves for the journal and coverage is recorded after the answer (recordCall), and may be
 * batched: the reads of this process (journal, coverage) include every call it recorded before.
 * Reads never create a session nor make one more recent. Every call may reject with
 * StateUnavailableError; bad input never changes anything.
 */
export interface MockState {
  readonly kind: StateKind;

  /**
   * Opens a request's session (created on first use from the initial data; its recency refreshed)
   * and, given the names of the scenarios that have a rule for the request's operation, takes the
   * session's switch for it: the active scenario's name if it is one of them, one request counted
   * off its "next N" (atomically: N requests spread over replicas fire exactly N times).
   * `take` undefined leaves the switch alone (a request forced by Prefer or X-Mock-Scenario).
   */
  beginCall(session: SessionId, take: readonly string[] | undefined): Promise<string | undefined>;

  /**
   * Pets in ascending id order, initial ones first. `initial`: those of the version the request
   * runs on, which a reload may have replaced in the state since it arrived; the state's own when
   * not given. (A file store's pets are all its own: it has none.)
   */
  listPets(session: SessionId, query: ListQuery, initial?: readonly Pet[]): Promise<Pet[]>;
  getPet(session: SessionId, id: Int64, initial?: readonly Pet[]): Promise<Pet | undefined>;
  /**
   * Stores a pet under the session's next id, charged to the budgets, as one atomic step; resolves
   * once it is kept. Over a budget it rejects with StoreFullError: nothing stored, no id used.
   */
  createPet(session: SessionId, pet: NewPet): Promise<Pet>;
  // --- the items of the contract's other resources (issue 30) ---
  // `seeds`: the seeded items of the contract version the request runs on, which a place holds
  // until the session first writes to it. Keys are texts (`7`, `alice`); lists are in key order.
  listItems(session: SessionId, seeds: ItemSeeds, place: ItemPlace): Promise<readonly Item[]>;
  getItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
  ): Promise<Item | undefined>;
  /**
   * Stores an item under the client's key or the resource's next one (counted per session), as
   * one atomic step: a taken key stores nothing; over a budget it rejects with StoreFullError.
   */
  createItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    item: Item,
    key: NewKey,
  ): Promise<Created>;
  /** Puts `item` in the place of the one with this key; false, changing nothing, if none. */
  replaceItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
    item: Item,
  ): Promise<boolean>;
  /** Removes the item with this key; false if none. */
  deleteItem(session: SessionId, seeds: ItemSeeds, place: ItemPlace, key: string): Promise<boolean>;

  /** Writes a finished request to the journal and coverage; never throws. */
  recordCall(call: FinishedCall): void;

  /**
   * Back to the start, as one atomic step: initial pets and id counter, seeded items and key
   * counters, what they were charged given back, the start-up scenario on, the journal emptied.
   * Coverage is kept.
   */
  reset(session: SessionId): Promise<void>;
  /** Switches a scenario on, for the next `times` matching requests if given (creates the session). */
  activate(session: SessionId, scenario: string, times?: number): Promise<void>;
  deactivate(session: SessionId): Promise<void>;
  /** The session's switch, or null (also for a session that is not live). */
  active(session: SessionId): Promise<ActiveScenario | null>;
  /** The default session, then the live named ones, most recently used first. */
  sessions(): Promise<SessionSummary[]>;
  /** Newest first, at most `limit`; empty for a session that is not live. */
  journal(session: SessionId, limit: number): Promise<JournalEntry[]>;
  /**
   * What was answered: `suite` for the whole suite's (every session's, dropped ones included),
   * else that session's (undefined if it is not live).
   */
  coverage(of: { suite: true } | { session: string }): Promise<CoverageTally | undefined>;
  /** Clears one session's coverage, or without a session every coverage: the suite's and all. */
  clearCoverage(session: string | undefined): Promise<void>;
  // --- reload: what a new contract, scenarios or fixtures change ---
  /** Every live session's pets besides the initial data. */
  storedPets(): Promise<StoredPets[]>;
  /**
   * Every live session's items in the places it has written to (the others show their seeds):
   * what a new contract's item schemas must accept.
   */
  storedItems(): Promise<StoredItems[]>;
  /**
   * New initial data for every session, kept pets staying on top of it (a reload checked their
   * ids first); `identity` is what the mock serves now (a shared prefix records it).
   */
  rebase(initial: StoreSnapshot, identity: Readonly<Record<string, string>>): Promise<void>;
  /** Turns off each switch whose scenario is not one of `known`; says which. */
  switchOff(known: readonly string[]): Promise<SwitchedOff[]>;
  /** Every live session reset (see reset). */
  resetAll(): Promise<void>;

  /** Pets of the default session: for the ready line. */
  petCount(): Promise<number>;
  /** Rejects with StateUnavailableError when the store cannot be reached. */
  health(): Promise<void>;
  /** Writes what is pending (a file store, batched records) and lets go of the store. */
  close(): Promise<void>;
}

/**
 * Bytes one session's journal may keep: its share of --journal-bytes, the default session's
 * included, so that all of them fit.
 */
export function journalShareOf({
  journalBytes,
  maxSessions,
}: Pick<Config, 'journalBytes' | 'maxSessions'>): number {
  return Math.floor(journalBytes / (maxSessions + 1));
}
