import { nextInt64, parseInt64 } from '../util/int64.js';
import { parseJson, stringifyJson } from '../util/json-codec.js';
import { truncate } from '../util/quote-text.js';
import { isItem, keyText, type Item, type ItemPlace, type NewKey } from './item.js';
import type { ItemSeeds } from './item-seeds.js';
import type { ArgsOf } from './redis-scripts.js';
import { itemCost } from './store-limits.js';

// How the Redis state keeps items (redis-scripts.ts, CREATE_ITEM and the scripts beside it): the
// codes that list them in key order, and the arguments its scripts take about an item.

/** Digits of an int64's magnitude, padded to one width: 2^63 has 19. */
const MAGNITUDE_DIGITS = 19;

/**
 * A key's order code: Redis lists the members of a sorted set whose scores are all 0 by their
 * bytes, and the codes' byte order is compareKeys's (item.ts). An integer key is '1' and its
 * digits padded to 19 (a negative one '0' and the nines' complement of its magnitude's, so that a
 * larger magnitude comes first), then a space and its text, which orders keys of one value (`7`,
 * `07`); any other text is '2' and its UTF-16 code units, four hex digits each. Codes are ASCII,
 * and an integer travels as digits, never as a double: exact to 2^63-1.
 */
export function orderCode(key: string): string {
  const value = parseInt64(key);
  if (value === undefined) {
    let units = '';
    for (let i = 0; i < key.length; i += 1) {
      units += key.charCodeAt(i).toString(16).padStart(4, '0');
    }
    return `2${units}`;
  }
  const negative = value < 0;
  const magnitude = (negative ? -BigInt(value) : BigInt(value))
    .toString()
    .padStart(MAGNITUDE_DIGITS, '0');
  const digits = negative
    ? `0${magnitude.replace(/\d/g, (digit) => String(9 - Number(digit)))}`
    : `1${magnitude}`;
  return `${digits} ${key}`;
}

/** What CREATE_ITEM takes about the item and its key. */
export type CreateItemArgs = ArgsOf<
  'made' | 'key' | 'order' | 'counterFloor' | 'jsonBefore' | 'jsonAfter' | 'costWithoutKey'
>;

/**
 * CREATE_ITEM's arguments for an item under the client's key (its JSON whole), or under one the
 * script makes (its JSON in two parts around the key, which the script fills in): the same JSON
 * and charge as the memory store's.
 */
export function createItemArgs(item: Item, key: NewKey): CreateItemArgs {
  if (key.chosen !== undefined) {
    const stored: Item = { ...item, [key.property]: key.chosen };
    const chosen = typeof key.chosen === 'string' ? parseInt64(key.chosen) : key.chosen;
    const text = key.chosen.toString();
    return {
      made: '',
      key: text,
      order: orderCode(text),
      // Counters are positive (they start after the seeded keys): a key below 0 never meets one.
      counterFloor: chosen !== undefined && chosen >= 0 ? nextInt64(chosen).toString() : '',
      jsonBefore: stringifyJson(stored),
      jsonAfter: '',
      costWithoutKey: String(itemCost(stored)),
    };
  }
  // The key's place in the JSON: the one character where two placeholders' texts differ.
  const withZero: Item = { ...item, [key.property]: 0 };
  const zero = stringifyJson(withZero);
  const one = stringifyJson({ ...item, [key.property]: 1 });
  let at = 0;
  while (at < zero.length && zero[at] === one[at]) at += 1;
  if (at === zero.length) throw new Error(`createItem: no place for the key ${key.property}`);
  return {
    made: key.kind,
    key: '',
    order: '',
    counterFloor: '',
    jsonBefore: zero.slice(0, at),
    jsonAfter: zero.slice(at + 1),
    costWithoutKey: String(itemCost(withZero) - 1),
  };
}

/**
 * A place's seeded items as the writing scripts copy them on a session's first write: the order
 * code and JSON of each, in key order.
 */
export async function seedTail(seeds: ItemSeeds, place: ItemPlace): Promise<string[]> {
  const property = seeds.keyOf(place.resource);
  return (await seeds.itemsOf(place)).flatMap((item) => {
    const key = keyText(item[property]);
    return key === undefined ? [] : [orderCode(key), stringifyJson(item)];
  });
}

/** An item as Redis keeps it: JSON with int64 digits exact. */
export function itemOf(json: string): Item {
  const value = parseJson(json);
  if (!isItem(value)) throw new Error(`not an item: ${truncate(json, 80)}`);
  return value;
}
