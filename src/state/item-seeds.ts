import type { GenerateValue } from '../contract/answer-generator.js';
import type { Resource, ResourceModel } from '../contract/resource-model.js';
import { errorMessage } from '../util/error-message.js';
import { freshValueSchema, itemShapeOf } from '../contract/item-shape.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import { Refusal } from '../util/refusal.js';
import {
  compareKeys,
  isItem,
  keyText,
  madeKey,
  placeId,
  type Item,
  type ItemPlace,
} from './item.js';

/** Tries of a generated string key before a counted one is taken instead. */
export const KEY_TRIES = 5;

/**
 * A new string key for a resource, generated from its key property's own schema without the
 * schema's example (so it keeps to its pattern or format, and differs with `mix`); undefined
 * where nothing but an empty text comes.
 */
export async function newStringKey(
  generate: GenerateValue,
  document: OpenApiDocument,
  resource: Resource,
  mix: readonly (string | number)[],
): Promise<string | undefined> {
  const own = itemShapeOf(document, resource.itemSchema).schemas.get(resource.key.property);
  const schema = own === undefined ? { type: 'string' } : freshValueSchema(document, own);
  const text = keyText(await generate(schema, [resource.name, 'key', ...mix]));
  return text === '' ? undefined : text;
}

/** Parents whose children are seeded: the first ones of each seeded collection. */
export const SEEDED_PARENTS = 2;

/** The initial items of a contract's resources, as every session starts from and resets to. */
export interface ItemSeeds {
  /**
   * The seeded items of a place, in key order: generated from the item schema on first use, then
   * the same (each item's data is seeded by its resource, place and index, so the same seed
   * gives the same bytes whatever is asked first). Children are seeded under the first
   * SEEDED_PARENTS items of their parent's seeded collection; other places start empty.
   */
  itemsOf(place: ItemPlace): Promise<readonly Item[]>;
  /** Where the keys a resource's store makes are counted from: after its seeded ones. */
  firstCounter(resource: string): number;
  /** The property holding a resource's keys (`id` for one the model does not have). */
  keyOf(resource: string): string;
}

/** A resource's items could not be generated from its schema: the request that needed them is a 500. */
export class SeedError extends Refusal {
  override name = 'SeedError';

  constructor(resource: string, problem: string) {
    super(
      500,
      'internal_error',
      `The mock cannot seed the items of resource '${resource}' from the contract: ${problem}.`,
    );
  }
}

/**
 * The seeded items of a contract's resources: `count` per collection, generated with `generate`
 * (the contract's seeded faker) from each item schema, keys made as the store makes them
 * (1, 2, 3… for integers) unless the client names them (then as generated, made unique).
 */
export function createItemSeeds(
  model: ResourceModel,
  document: OpenApiDocument,
  generate: GenerateValue,
  count: number,
): ItemSeeds {
  const resources = new Map(model.resources.map((resource) => [resource.name, resource]));
  const seeded = new Map<string, Promise<readonly Item[]>>();

  async function seed(resource: Resource, place: ItemPlace): Promise<readonly Item[]> {
    const index = await parentIndex(resource, place);
    if (index === undefined) return [];
    const items: Item[] = [];
    const taken = new Set<string>();
    for (let i = 0; i < count; i += 1) {
      let value: unknown;
      try {
        value = await generate(resource.itemSchema, [resource.name, ...place.parents, i]);
      } catch (error) {
        throw new SeedError(resource.name, errorMessage(error));
      }
      if (!isItem(value)) throw new SeedError(resource.name, 'its item schema is not an object');
      const n = index * count + i + 1;
      const key =
        resource.key.kind === 'string'
          ? await stringKey(resource, [...place.parents, i], taken)
          : madeKey(resource.key.kind, n);
      taken.add(key.toString());
      items.push({ ...value, [resource.key.property]: key });
    }
    const property = resource.key.property;
    return items.sort((a, b) =>
      compareKeys(keyText(a[property]) ?? '', keyText(b[property]) ?? ''),
    );
  }

  /**
   * Which of its parent's seeded items the place sits under (0 for a top-level one), or undefined
   * where it is seeded empty: under a parent past the first SEEDED_PARENTS, or one not seeded.
   */
  async function parentIndex(resource: Resource, place: ItemPlace): Promise<number | undefined> {
    const parent = resource.parent && resources.get(resource.parent.resource);
    const parentKey = place.parents.at(-1);
    if (!parent || parentKey === undefined) return 0;
    const siblings = await itemsOf({ resource: parent.name, parents: place.parents.slice(0, -1) });
    const index = siblings
      .slice(0, SEEDED_PARENTS)
      .findIndex((item) => keyText(item[parent.key.property]) === parentKey);
    return index < 0 ? undefined : index;
  }

  /**
   * A seeded string key: generated from the key's own schema (so it keeps to its pattern or
   * format), tried again where taken; the item's number where nothing new comes.
   */
  async function stringKey(
    resource: Resource,
    mix: readonly (string | number)[],
    taken: ReadonlySet<string>,
  ): Promise<string> {
    for (let attempt = 0; attempt < KEY_TRIES; attempt += 1) {
      let text: string | undefined;
      try {
        text = await newStringKey(generate, document, resource, [...mix, attempt]);
      } catch (error) {
        throw new SeedError(resource.name, errorMessage(error));
      }
      if (text !== undefined && !taken.has(text)) return text;
    }
    return String(taken.size + 1);
  }

  function itemsOf(place: ItemPlace): Promise<readonly Item[]> {
    const resource = resources.get(place.resource);
    if (!resource) return Promise.resolve([]);
    const id = placeId(place);
    let items = seeded.get(id);
    if (!items) {
      items = seed(resource, place);
      // A failure is told to each request that needs the place, never cached as its data.
      items.catch(() => seeded.delete(id));
      seeded.set(id, items);
    }
    return items;
  }

  return {
    itemsOf,
    firstCounter: (name) => {
      const resource = resources.get(name);
      return count * (resource?.parent ? SEEDED_PARENTS : 1) + 1;
    },
    keyOf: (name) => resources.get(name)?.key.property ?? 'id',
  };
}

/** The seeded item of a place with this key, if any: what a place holds until its first write. */
export async function seededItem(
  seeds: ItemSeeds,
  place: ItemPlace,
  key: string,
): Promise<Item | undefined> {
  const property = seeds.keyOf(place.resource);
  return (await seeds.itemsOf(place)).find((item) => keyText(item[property]) === key);
}
