import { nextInt64, parseInt64, type Int64 } from '../util/int64.js';
import { seededItem, type ItemSeeds } from './item-seeds.js';
import {
  compareKeys,
  keyText,
  madeKey,
  placeId,
  type Created,
  type Item,
  type ItemPlace,
  type NewKey,
} from './item.js';
import { StoreBudget } from './store-budget.js';
import { itemCost } from './store-limits.js';

/** The items of one place a session has written to: its own copy, in key order. */
interface Collection {
  readonly keys: string[];
  readonly byKey: Map<string, Item>;
}

/** Where `key` is in ascending `keys`, or where it would go (as a negative: -(index + 1)). */
function search(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareKeys(keys[middle] ?? '', key);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -(low + 1);
}

/**
 * The items of one session in memory, for every resource of the contract, knowing nothing of
 * HTTP. A place it has not written to is its seeded items (`seeds`: those of the contract version
 * the request runs on), shared with every session; the first write copies them into the
 * session's own collection (seeds are a handful per place), which a reload keeps. Keys the
 * store makes are counted per resource, after the seeded ones and any a client chose. Each
 * method's change happens in one synchronous step after its seeds are read, so calls of
 * concurrent requests never interleave within it.
 */
export class ItemStore {
  readonly #budget: StoreBudget;
  readonly #own = new Map<string, Collection>();
  readonly #counters = new Map<string, Int64>();
  /** Items created since the start or the last reset, and the bytes their writes were charged. */
  #added = 0;
  #addedBytes = 0;
  #discarded = false;

  /**
   * `budget`: the bytes all stores may add, and the creates each may make until its reset
   * (--max-store-bytes, and --max-pets, which counts a session's items as it counts its pets).
   */
  constructor(budget: StoreBudget = new StoreBudget()) {
    this.#budget = budget;
  }

  /** The place's items in key order. */
  async list(seeds: ItemSeeds, place: ItemPlace): Promise<readonly Item[]> {
    const own = this.#own.get(placeId(place));
    if (!own) return seeds.itemsOf(place);
    return own.keys.flatMap((key): Item[] => {
      const item = own.byKey.get(key);
      return item ? [item] : [];
    });
  }

  async get(seeds: ItemSeeds, place: ItemPlace, key: string): Promise<Item | undefined> {
    const own = this.#own.get(placeId(place));
    return own ? own.byKey.get(key) : seededItem(seeds, place, key);
  }

  /**
   * Stores a new item under its key (the client's, or the resource's next one): nothing is stored
   * where that key is taken, and over a budget it throws StoreFullError.
   */
  async create(seeds: ItemSeeds, place: ItemPlace, item: Item, key: NewKey): Promise<Created> {
    const collection = await this.#collection(seeds, place);
    const counter = this.#counters.get(place.resource) ?? seeds.firstCounter(place.resource);
    const value = key.chosen ?? madeKey(key.kind, counter);
    const text = value.toString();
    if (collection.byKey.has(text)) return { taken: text };
    const stored: Item = { ...item, [key.property]: value };
    this.#charge(itemCost(stored), true);
    this.#insert(collection, text, stored);
    this.#counters.set(place.resource, this.#counterAfter(counter, key.chosen));
    return { item: stored };
  }

  /** Puts `item` in the place of the item with this key; false (nothing changed) if there is none. */
  async replace(seeds: ItemSeeds, place: ItemPlace, key: string, item: Item): Promise<boolean> {
    const collection = await this.#collection(seeds, place);
    if (!collection.byKey.has(key)) return false;
    this.#charge(itemCost(item), false);
    collection.byKey.set(key, item);
    return true;
  }

  /** Removes the item with this key; false if there is none. */
  async remove(seeds: ItemSeeds, place: ItemPlace, key: string): Promise<boolean> {
    const collection = await this.#collection(seeds, place);
    if (!collection.byKey.delete(key)) return false;
    collection.keys.splice(search(collection.keys, key), 1);
    return true;
  }

  /** The items of each place it has written to (the others hold their seeds), by place id. */
  stored(): { readonly place: string; readonly items: readonly Item[] }[] {
    return [...this.#own].map(([place, collection]) => ({
      place,
      items: [...collection.byKey.values()],
    }));
  }

  /** Back to the seeded items and counters; gives back what its writes were charged. */
  reset(): void {
    this.#own.clear();
    this.#counters.clear();
    this.#giveBack();
  }

  /** Its session was dropped: gives back its budget, and charges nothing from now on. */
  discard(): void {
    this.#giveBack();
    this.#discarded = true;
  }

  #giveBack(): void {
    if (!this.#discarded) this.#budget.give(this.#addedBytes);
    this.#added = 0;
    this.#addedBytes = 0;
  }

  /** Charges a write's bytes (and a create's item) to the budgets, or throws StoreFullError. */
  #charge(bytes: number, isCreate: boolean): void {
    if (!this.#discarded) {
      // A replace adds no item: only the bytes budget applies (with --max-pets 0 too).
      if (isCreate) this.#budget.take(this.#added, bytes);
      else this.#budget.takeBytes(bytes);
      this.#addedBytes += bytes;
    }
    if (isCreate) this.#added += 1;
  }

  /** The counter after a create: past a client's integer key too, so made keys never meet it. */
  #counterAfter(counter: Int64, chosen: string | Int64 | undefined): Int64 {
    if (chosen === undefined) return nextInt64(counter);
    const chosenInt = typeof chosen === 'string' ? parseInt64(chosen) : chosen;
    return chosenInt !== undefined && chosenInt >= counter ? nextInt64(chosenInt) : counter;
  }

  /** The session's own collection of a place, copied from its seeds on first write. */
  async #collection(seeds: ItemSeeds, place: ItemPlace): Promise<Collection> {
    const id = placeId(place);
    const existing = this.#own.get(id);
    if (existing) return existing;
    const seeded = await seeds.itemsOf(place);
    // Another call of this session may have copied it meanwhile: keep the first copy.
    const raced = this.#own.get(id);
    if (raced) return raced;
    const property = seeds.keyOf(place.resource);
    const byKey = new Map<string, Item>();
    for (const item of seeded) {
      const text = keyText(item[property]);
      if (text !== undefined) byKey.set(text, item);
    }
    const collection: Collection = { keys: [...byKey.keys()], byKey };
    this.#own.set(id, collection);
    return collection;
  }

  #insert(collection: Collection, key: string, item: Item): void {
    const at = search(collection.keys, key);
    collection.keys.splice(at < 0 ? -(at + 1) : at, 0, key);
    collection.byKey.set(key, item);
  }
}
