import type { Int64 } from '../util/int64.js';
import type { CoverageTally } from './coverage-tally.js';
import { createSession, type SessionOptions } from './create-session.js';
import { createMemoryStore } from './open-store.js';
import type { StoreSnapshot } from './store-data.js';
import type {
  ActiveScenario,
  FinishedCall,
  MockState,
  SessionId,
  SessionSummary,
  StateKind,
  StoredItems,
  StoredPets,
  SwitchedOff,
} from './mock-state.js';
import { journalShareOf, type ListQuery } from './mock-state.js';
import type { Config } from '../config/settings.js';
import type { NewPet, Pet } from './pet.js';
import type { PetStore } from './pet-store.js';
import type { JournalEntry } from './request-journal.js';
import type { Created, Item, ItemPlace, NewKey } from './item.js';
import { seededItem, type ItemSeeds } from './item-seeds.js';
import { resetSession, type Session } from './session.js';
import { SessionRegistry } from './session-registry.js';

/**
 * The settings the state of one process takes from the Config, by name: live named sessions
 * kept (the least recently used is dropped for a new one), and each journal's entries and bytes
 * (a session's share of journalBytes; unbounded without it).
 */
export type LocalSettings = Pick<Config, 'maxSessions' | 'journalSize'> &
  Partial<Pick<Config, 'journalBytes'>>;

export interface LocalStateOptions extends Omit<SessionOptions, 'journalSize' | 'journalShare'> {
  readonly kind: Exclude<StateKind, 'redis'>;
  /** The default session's store: in memory, or the lowdb file (--db). */
  readonly defaultStore: PetStore;
  /** The Config, or what of it the state reads. */
  readonly settings: LocalSettings;
}

/** Runs `work`, its throw a rejection: every call of the seam settles, none throws. */
function attempt<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The state of one process: the default session's pets in memory or in the --db file, named
 * sessions in memory (at most maxSessions, least recently used dropped). Each call is over before
 * its promise settles, so what the steps of one request do never interleaves with another's.
 */
export class LocalState implements MockState {
  readonly kind: Exclude<StateKind, 'redis'>;
  readonly #registry: SessionRegistry;
  /** What new sessions start from and resets restore: changed by a reload. */
  #initial: StoreSnapshot;

  constructor(options: LocalStateOptions) {
    this.kind = options.kind;
    this.#initial = options.initial;
    const { maxSessions, journalSize, journalBytes } = options.settings;
    const sessions: SessionOptions = {
      ...options,
      journalSize,
      journalShare:
        journalBytes === undefined ? undefined : journalShareOf({ journalBytes, maxSessions }),
    };
    this.#registry = new SessionRegistry(
      createSession(undefined, options.defaultStore, sessions),
      (id) => createSession(id, createMemoryStore(this.#initial, options.budget), sessions),
      maxSessions,
    );
  }

  beginCall(session: SessionId, take: readonly string[] | undefined): Promise<string | undefined> {
    return attempt(() => {
      const opened = this.#registry.get(session);
      return take && opened.scenarios.take(take);
    });
  }

  listPets(session: SessionId, query: ListQuery, initial?: readonly Pet[]): Promise<Pet[]> {
    return attempt(() => this.#registry.get(session).store.list(query, initial));
  }

  getPet(session: SessionId, id: Int64, initial?: readonly Pet[]): Promise<Pet | undefined> {
    return attempt(() => this.#registry.get(session).store.get(id, initial));
  }

  createPet(session: SessionId, pet: NewPet): Promise<Pet> {
    return attempt(() => this.#registry.get(session).store.create(pet));
  }

  // Reads of items neither create a session nor make it more recent (the admin API and the
  // console read them too): a session that is not live holds its seeded items.
  listItems(session: SessionId, seeds: ItemSeeds, place: ItemPlace): Promise<readonly Item[]> {
    return attempt(() => {
      const live = this.#live(session);
      return live ? live.items.list(seeds, place) : seeds.itemsOf(place);
    });
  }

  getItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
  ): Promise<Item | undefined> {
    return attempt(() => {
      const live = this.#live(session);
      return live ? live.items.get(seeds, place, key) : seededItem(seeds, place, key);
    });
  }

  createItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    item: Item,
    key: NewKey,
  ): Promise<Created> {
    return attempt(() => this.#registry.get(session).items.create(seeds, place, item, key));
  }

  replaceItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
    item: Item,
  ): Promise<boolean> {
    return attempt(() => this.#registry.get(session).items.replace(seeds, place, key, item));
  }

  deleteItem(
    session: SessionId,
    seeds: ItemSeeds,
    place: ItemPlace,
    key: string,
  ): Promise<boolean> {
    return attempt(() => this.#registry.get(session).items.remove(seeds, place, key));
  }

  recordCall({ session, authenticated, journal, coverage }: FinishedCall): void {
    const target = authenticated
      ? this.#registry.get(session)
      : ((session === undefined ? undefined : this.#registry.peek(session)) ??
        this.#registry.default);
    target.journal.record(journal);
    target.coverage.record(coverage);
    this.#registry.coverage.record(coverage);
  }

  reset(session: SessionId): Promise<void> {
    return attempt(() => resetSession(this.#registry.get(session)));
  }

  activate(session: SessionId, scenario: string, times?: number): Promise<void> {
    return attempt(() => {
      this.#registry.get(session).scenarios.activate(scenario, times);
    });
  }

  deactivate(session: SessionId): Promise<void> {
    return attempt(() => {
      this.#registry.get(session).scenarios.deactivate();
    });
  }

  active(session: SessionId): Promise<ActiveScenario | null> {
    return attempt(() => this.#live(session)?.scenarios.active ?? null);
  }

  sessions(): Promise<SessionSummary[]> {
    const named = this.#registry.ids().flatMap((id) => {
      const session = this.#registry.peek(id);
      return session ? [{ id, active: session.scenarios.active }] : [];
    });
    return Promise.resolve([
      { id: null, active: this.#registry.default.scenarios.active },
      ...named,
    ]);
  }

  journal(session: SessionId, limit: number): Promise<JournalEntry[]> {
    return attempt(() => this.#live(session)?.journal.list(limit) ?? []);
  }

  coverage(of: { suite: true } | { session: string }): Promise<CoverageTally | undefined> {
    return attempt(() => this.#registry.coverageOf('suite' in of ? undefined : of.session));
  }

  clearCoverage(session: string | undefined): Promise<void> {
    return attempt(() => {
      this.#registry.clearCoverage(session);
    });
  }

  storedPets(): Promise<StoredPets[]> {
    return attempt(() =>
      this.#all().map((session) => ({
        session: session.id ?? null,
        ...session.store.storedPets(),
      })),
    );
  }

  storedItems(): Promise<StoredItems[]> {
    return attempt(() =>
      this.#all().flatMap((session) =>
        session.items.stored().map((stored) => ({ session: session.id ?? null, ...stored })),
      ),
    );
  }

  rebase(initial: StoreSnapshot): Promise<void> {
    return attempt(() => {
      this.#initial = initial;
      for (const session of this.#all()) session.store.rebase(initial);
    });
  }

  switchOff(known: readonly string[]): Promise<SwitchedOff[]> {
    return attempt(() =>
      this.#all().flatMap((session) => {
        const active = session.scenarios.active;
        if (!active || known.includes(active.name)) return [];
        session.scenarios.deactivate();
        return [{ session: session.id ?? null, scenario: active.name }];
      }),
    );
  }

  resetAll(): Promise<void> {
    return attempt(async () => {
      for (const session of this.#all()) await resetSession(session);
    });
  }

  petCount(): Promise<number> {
    return Promise.resolve(this.#registry.default.store.size);
  }

  health(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.#registry.default.store.close();
  }

  /** The default session and the live named ones, without touching their recency. */
  #all(): Session[] {
    const named = this.#registry.ids().flatMap((id) => this.#registry.peek(id) ?? []);
    return [this.#registry.default, ...named];
  }

  /** A live session (its id checked), without creating it or touching its recency. */
  #live(session: SessionId): Session | undefined {
    return this.#registry.find(session);
  }
}
