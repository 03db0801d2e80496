// The MockState contract for the items of a contract's resources (issue 30), the same cases on
// every backend: jest runs this file in the memory project and again in the redis project
// (test/helpers/state-backend.ts). The seeds are made by hand here, not by the faker.
import type { ResourceKey } from '../../src/contract/resource-model.js';
import type { Int64 } from '../../src/util/int64.js';
import {
  keyText,
  placeId,
  type Created,
  type Item,
  type ItemPlace,
  type NewKey,
} from '../../src/state/item.js';
import type { ItemSeeds } from '../../src/state/item-seeds.js';
import type { MockState, SessionId } from '../../src/state/mock-state.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { itemCost, petCost, StoreFullError } from '../../src/state/store-limits.js';
import { pollUntil } from '../helpers/poll-until.js';
import { isLive, openTestState } from '../helpers/test-app.js';
import { itOnRedis, testBackend } from '../helpers/state-backend.js';

const users: ItemPlace = { resource: 'users', parents: [] };
/** Keyed by `name`, a string the client gives or the store makes (`3`, `4`…). */
const tags: ItemPlace = { resource: 'tags', parents: [] };
/** Keyed by `token`, a uuid the store makes; seeded empty. */
const tokens: ItemPlace = { resource: 'tokens', parents: [] };
const ordersOf = (user: string): ItemPlace => ({ resource: 'users.orders', parents: [user] });

const SEEDED = new Map<string, readonly Item[]>([
  [
    placeId(users),
    [
      { id: 1, name: 'ann' },
      { id: 2, name: 'bob' },
      { id: 3, name: 'cy' },
    ],
  ],
  [placeId(tags), [{ name: 'blue' }, { name: 'red' }]],
  [
    placeId(ordersOf('1')),
    [
      { id: 1, total: 10 },
      { id: 2, total: 20 },
    ],
  ],
  [
    placeId(ordersOf('2')),
    [
      { id: 3, total: 30 },
      { id: 4, total: 40 },
    ],
  ],
]);
const FIRST_COUNTER = new Map([
  ['users', 4],
  ['tags', 3],
  ['users.orders', 5],
]);
const KEY_PROPERTY = new Map([
  ['tags', 'name'],
  ['tokens', 'token'],
]);

/** Seeds as the contract's would be: the same items for every session, in key order. */
const seeds: ItemSeeds = {
  itemsOf: (place) => Promise.resolve(SEEDED.get(placeId(place)) ?? []),
  firstCounter: (resource) => FIRST_COUNTER.get(resource) ?? 1,
  keyOf: (resource) => KEY_PROPERTY.get(resource) ?? 'id',
};

const madeKey = (kind: ResourceKey['kind'] = 'integer', property = 'id'): NewKey => ({
  property,
  chosen: undefined,
  kind,
});
const clientKey = (chosen: string | Int64, property = 'id'): NewKey => ({ property, chosen });

function openState(options: Parameters<typeof openTestState>[0] = {}): Promise<MockState> {
  return openTestState({ initial: storeDataFrom([]), ...options });
}

/** The keys of a place's items as listed, as text. */
async function keysIn(
  state: MockState,
  session: SessionId,
  place: ItemPlace,
  property = seeds.keyOf(place.resource),
): Promise<(string | undefined)[]> {
  const items = await state.listItems(session, seeds, place);
  return items.map((item) => keyText(item[property]));
}

/** The item a create stored; fails the test where the key was taken. */
function stored(created: Created): Item {
  if (!('item' in created)) throw new Error(`the key ${created.taken} was taken`);
  return created.item;
}

function createUser(state: MockState, session: SessionId, name: string): Promise<Item> {
  return state.createItem(session, seeds, users, { name }, madeKey()).then(stored);
}

describe(`MockState on ${testBackend}: items`, () => {
  it('shows the seeded items of a place until the session writes to it', async () => {
    const state = await openState();
    expect(await state.listItems(undefined, seeds, users)).toEqual(SEEDED.get(placeId(users)));
    expect(await state.getItem(undefined, seeds, users, '2')).toEqual({ id: 2, name: 'bob' });
    expect(await state.getItem(undefined, seeds, users, '9')).toBeUndefined();
    expect(await state.listItems(undefined, seeds, tokens)).toEqual([]);

    expect(await createUser(state, undefined, 'dan')).toEqual({ name: 'dan', id: 4 });
    expect(await state.listItems(undefined, seeds, users)).toEqual([
      ...(SEEDED.get(placeId(users)) ?? []),
      { name: 'dan', id: 4 },
    ]);
    expect(await state.getItem(undefined, seeds, users, '2')).toEqual({ id: 2, name: 'bob' });
    expect(await state.getItem(undefined, seeds, users, '4')).toEqual({ name: 'dan', id: 4 });
    // Another place of the session still shows its seeds.
    expect(await keysIn(state, undefined, tags)).toEqual(['blue', 'red']);
  });

  it('makes keys counted per resource and session, from after the seeded ones', async () => {
    const state = await openState();
    const made: Item[] = [];
    for (const name of ['dan', 'eve', 'fay']) made.push(await createUser(state, 'count-a', name));
    expect(made.map((item) => item.id)).toEqual([4, 5, 6]);
    const tag = await state.createItem('count-a', seeds, tags, {}, madeKey('string', 'name'));
    expect(stored(tag)).toEqual({ name: '3' });
    const token = stored(
      await state.createItem('count-a', seeds, tokens, { scope: 'read' }, madeKey('uuid', 'token')),
    );
    expect(token).toEqual({ scope: 'read', token: '00000000-0000-4000-8000-000000000001' });
    expect((await createUser(state, 'count-b', 'gus')).id).toBe(4);
    // Each made key is found by its text (on Redis: the script's order code is this process's).
    for (const item of made) {
      expect(await state.getItem('count-a', seeds, users, String(item.id))).toEqual(item);
    }
    expect(await state.getItem('count-a', seeds, tags, '3')).toEqual({ name: '3' });
    const tokenKey = keyText(token.token) ?? '';
    expect(await state.getItem('count-a', seeds, tokens, tokenKey)).toEqual(token);
    expect(await keysIn(state, 'count-a', users)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it("stores under the client's key, and moves the counter past an integer one", async () => {
    const state = await openState();
    const ten = await state.createItem(undefined, seeds, users, { name: 'ten' }, clientKey(10));
    expect(stored(ten)).toEqual({ name: 'ten', id: 10 });
    expect((await createUser(state, undefined, 'next')).id).toBe(11);
    // Below the counter: it stays where it is.
    await state.createItem(undefined, seeds, users, { name: 'seven' }, clientKey(7));
    expect((await createUser(state, undefined, 'then')).id).toBe(12);
    // A key of digits in text counts too; other text does not.
    const green = await state.createItem(undefined, seeds, tags, {}, clientKey('green', 'name'));
    expect(stored(green)).toEqual({ name: 'green' });
    const afterGreen = await state.createItem(
      undefined,
      seeds,
      tags,
      {},
      madeKey('string', 'name'),
    );
    expect(stored(afterGreen)).toEqual({ name: '3' });
    await state.createItem(undefined, seeds, tags, {}, clientKey('20', 'name'));
    const after20 = await state.createItem(undefined, seeds, tags, {}, madeKey('string', 'name'));
    expect(stored(after20)).toEqual({ name: '21' });
    expect(await keysIn(state, undefined, users)).toEqual(['1', '2', '3', '7', '10', '11', '12']);
  });

  it('stores nothing under a taken key, and says which', async () => {
    const state = await openState({ maxStoreBytes: 5 * itemCost({ id: 4, name: 'dan' }) });
    const before = await state.listItems(undefined, seeds, users);
    expect(
      await state.createItem(undefined, seeds, users, { name: 'again' }, clientKey(2)),
    ).toEqual({ taken: '2' });
    expect(await state.getItem(undefined, seeds, users, '2')).toEqual({ id: 2, name: 'bob' });
    await createUser(state, undefined, 'dan');
    expect(
      await state.createItem(undefined, seeds, users, { name: 'again' }, clientKey('4')),
    ).toEqual({ taken: '4' });
    expect(await state.listItems(undefined, seeds, users)).toEqual([
      ...before,
      { name: 'dan', id: 4 },
    ]);
    // Neither a key nor a byte was used: four more of the same size fit, and the next is 5.
    for (const name of ['eve', 'fay', 'gus']) await createUser(state, 'taken-b', name);
    expect((await createUser(state, undefined, 'ian')).id).toBe(5);
  });

  it('replaces and deletes by key, and says false for a key not there', async () => {
    const state = await openState();
    expect(await state.replaceItem(undefined, seeds, users, '2', { id: 2, name: 'bo' })).toBe(true);
    expect(await state.getItem(undefined, seeds, users, '2')).toEqual({ id: 2, name: 'bo' });
    expect(await state.replaceItem(undefined, seeds, users, '9', { id: 9, name: 'no' })).toBe(
      false,
    );
    expect(await state.getItem(undefined, seeds, users, '9')).toBeUndefined();
    expect(await state.deleteItem(undefined, seeds, users, '1')).toBe(true);
    expect(await state.deleteItem(undefined, seeds, users, '1')).toBe(false);
    expect(await state.getItem(undefined, seeds, users, '1')).toBeUndefined();
    expect(await state.listItems(undefined, seeds, users)).toEqual([
      { id: 2, name: 'bo' },
      { id: 3, name: 'cy' },
    ]);
    // A first write that finds nothing still makes the place the session's own.
    expect(await state.deleteItem(undefined, seeds, tags, 'green')).toBe(false);
    for (const tag of ['blue', 'red']) {
      expect(await state.deleteItem(undefined, seeds, tags, tag)).toBe(true);
    }
    expect(await state.listItems(undefined, seeds, tags)).toEqual([]);
  });

  it("keeps each session's items apart", async () => {
    const state = await openState();
    await createUser(state, 'apart-a', 'dan');
    await state.deleteItem('apart-a', seeds, users, '1');
    expect(await keysIn(state, 'apart-a', users)).toEqual(['2', '3', '4']);
    expect(await keysIn(state, 'apart-b', users)).toEqual(['1', '2', '3']);
    expect(await keysIn(state, undefined, users)).toEqual(['1', '2', '3']);
    expect(await state.getItem('apart-b', seeds, users, '4')).toBeUndefined();
    expect(await state.getItem(undefined, seeds, users, '1')).toEqual({ id: 1, name: 'ann' });
  });

  it('lists what each live session stored, by place, for a reload to check', async () => {
    const state = await openState();
    expect(await state.storedItems()).toEqual([]);
    await state.createItem(undefined, seeds, users, { name: 'dee' }, madeKey());
    await state.createItem('s1', seeds, ordersOf('1'), { total: 5 }, madeKey());
    const stored = await state.storedItems();
    const byPlace = (session: string | null, place: ItemPlace) =>
      stored.find((entry) => entry.session === session && entry.place === placeId(place));
    // A written place holds its seeded items copied, and the new one.
    expect(
      byPlace(null, users)
        ?.items.map((item) => item.name)
        .sort(),
    ).toEqual(['ann', 'bob', 'cy', 'dee']);
    expect(byPlace('s1', ordersOf('1'))?.items).toHaveLength(3);
    expect(stored).toHaveLength(2);
    await state.reset('s1');
    expect(await state.storedItems()).toHaveLength(1);
  });

  it('a reset brings back the seeded items and counters; resetAll every session’s', async () => {
    const state = await openState();
    await createUser(state, 'reset-a', 'dan');
    await createUser(state, 'reset-a', 'eve');
    await state.deleteItem('reset-a', seeds, users, '1');
    await createUser(state, 'reset-b', 'fay');
    await state.reset('reset-a');
    expect(await state.listItems('reset-a', seeds, users)).toEqual(SEEDED.get(placeId(users)));
    expect((await createUser(state, 'reset-a', 'gus')).id).toBe(4);
    expect(await keysIn(state, 'reset-b', users)).toEqual(['1', '2', '3', '4']);

    await createUser(state, undefined, 'hal');
    await state.resetAll();
    for (const session of [undefined, 'reset-a', 'reset-b']) {
      expect(await keysIn(state, session, users)).toEqual(['1', '2', '3']);
      expect((await createUser(state, session, 'ian')).id).toBe(4);
    }
  });

  it('100 concurrent creates on a place not yet written get 100 distinct keys, no gaps', async () => {
    const state = await openState();
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) => createUser(state, 'race', `u${String(i)}`)),
    );
    const ids = created.map((item) => Number(item.id)).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 4));
    const listed = await keysIn(state, 'race', users);
    expect(listed).toEqual(Array.from({ length: 103 }, (_, i) => String(i + 1)));
  });

  it('keeps int64 keys and values exact to 2^63-1, also when the store makes the key', async () => {
    const state = await openState();
    const values = { name: 'big', count: 9007199254740993n };
    const below = await state.createItem(
      undefined,
      seeds,
      users,
      values,
      clientKey(9223372036854775806n),
    );
    expect(stored(below)).toEqual({ ...values, id: 9223372036854775806n });
    // The counter moved past it: the store makes 2^63-1 itself.
    const max = stored(await state.createItem(undefined, seeds, users, values, madeKey()));
    expect(max).toEqual({ ...values, id: 9223372036854775807n });
    expect(await state.getItem(undefined, seeds, users, '9223372036854775807')).toEqual(max);
    expect(await state.getItem(undefined, seeds, users, '9223372036854775805')).toBeUndefined();
    // Two keys one double apart are two items.
    await state.createItem(undefined, seeds, users, { name: 'a' }, clientKey(9007199254740992n));
    await state.createItem(undefined, seeds, users, { name: 'b' }, clientKey(9007199254740993n));
    expect(await keysIn(state, undefined, users)).toEqual([
      '1',
      '2',
      '3',
      '9007199254740992',
      '9007199254740993',
      '9223372036854775806',
      '9223372036854775807',
    ]);
    const listed = await state.listItems(undefined, seeds, users);
    expect(listed.at(-1)).toEqual(max);
    expect(listed.at(-1)?.count).toBe(9007199254740993n);
  });

  it('lists integers by value, then other text by code units; keys of one value apart', async () => {
    const state = await openState();
    // U+FF01 sorts after the surrogates of 😀 by code units (before it by code points).
    const keys = ['10', '9', '-5', '-10', 'b', 'a', '07', '7', '\uff01', '😀', 'é', '+7'];
    for (const key of keys) {
      stored(await state.createItem(undefined, seeds, tags, {}, clientKey(key, 'name')));
    }
    const order = [
      '-10',
      '-5',
      '+7',
      '07',
      '7',
      '9',
      '10',
      'a',
      'b',
      'blue',
      'red',
      'é',
      '😀',
      '\uff01',
    ];
    expect(await keysIn(state, undefined, tags)).toEqual(order);
    // `07` and `7` are two keys: removing one leaves the other.
    expect(await state.deleteItem(undefined, seeds, tags, '07')).toBe(true);
    expect(await keysIn(state, undefined, tags)).toEqual(order.filter((key) => key !== '07'));
    expect(await state.getItem(undefined, seeds, tags, '7')).toEqual({ name: '7' });
    expect(await state.getItem(undefined, seeds, tags, '+7')).toEqual({ name: '+7' });
  });

  it('keeps nested places apart, their keys counted per resource', async () => {
    const state = await openState();
    const order = (user: string) =>
      state.createItem(undefined, seeds, ordersOf(user), { total: 1 }, madeKey()).then(stored);
    expect((await order('1')).id).toBe(5);
    // A user past the seeded ones has no orders, and the next key of the resource.
    expect((await order('9')).id).toBe(6);
    expect(await keysIn(state, undefined, ordersOf('1'))).toEqual(['1', '2', '5']);
    expect(await keysIn(state, undefined, ordersOf('2'))).toEqual(['3', '4']);
    expect(await keysIn(state, undefined, ordersOf('9'))).toEqual(['6']);
    expect(await state.getItem(undefined, seeds, ordersOf('9'), '5')).toBeUndefined();
    expect(await state.deleteItem(undefined, seeds, ordersOf('2'), '1')).toBe(false);
    expect(await keysIn(state, undefined, users)).toEqual(['1', '2', '3']);
  });
});

describe(`MockState on ${testBackend}: the budgets of items`, () => {
  const item = { name: 'same' };
  /** What one such item with a one-digit key is charged. */
  const cost = itemCost({ ...item, id: 4 });

  it('refuses a create past maxPets with nothing stored and no key used', async () => {
    const state = await openState({ maxPets: 2 });
    await createUser(state, undefined, 'dan');
    await createUser(state, undefined, 'eve');
    await expect(createUser(state, undefined, 'fay')).rejects.toBeInstanceOf(StoreFullError);
    expect(await keysIn(state, undefined, users)).toEqual(['1', '2', '3', '4', '5']);
    // Replaces and deletes are no creates.
    expect(await state.replaceItem(undefined, seeds, users, '4', { id: 4, name: 'd' })).toBe(true);
    expect(await state.deleteItem(undefined, seeds, users, '5')).toBe(true);
    await state.reset(undefined);
    expect((await createUser(state, undefined, 'gus')).id).toBe(4);
  });

  it('with maxPets 0 refuses every create, and still replaces', async () => {
    const state = await openState({ maxPets: 0 });
    await expect(createUser(state, undefined, 'dan')).rejects.toBeInstanceOf(StoreFullError);
    expect(await state.replaceItem(undefined, seeds, users, '1', { id: 1, name: 'a' })).toBe(true);
    expect(await state.getItem(undefined, seeds, users, '1')).toEqual({ id: 1, name: 'a' });
  });

  it('refuses a write past maxStoreBytes whole: nothing stored, no key used', async () => {
    const state = await openState({ maxStoreBytes: 3 * cost });
    expect((await state.createItem(undefined, seeds, users, item, madeKey()).then(stored)).id).toBe(
      4,
    );
    const big = { name: 'x'.repeat(3 * cost) };
    const refused = state.createItem(undefined, seeds, users, big, madeKey());
    await expect(refused).rejects.toBeInstanceOf(StoreFullError);
    await expect(refused).rejects.toMatchObject({ status: 507, code: 'store_full' });
    const replaced = state.replaceItem(undefined, seeds, users, '1', { id: 1, ...big });
    await expect(replaced).rejects.toBeInstanceOf(StoreFullError);
    expect(await state.getItem(undefined, seeds, users, '1')).toEqual({ id: 1, name: 'ann' });
    expect(await keysIn(state, undefined, users)).toEqual(['1', '2', '3', '4']);
    expect((await state.createItem(undefined, seeds, users, item, madeKey()).then(stored)).id).toBe(
      5,
    );
  });

  it('charges every write, shares the bytes with pets, and a reset gives back its charge', async () => {
    const pet = { name: 'p', categoryId: 1 };
    const state = await openState({ maxStoreBytes: 3 * cost + petCost({ id: 1, ...pet }) });
    await state.createItem('bytes-a', seeds, users, item, madeKey());
    expect(await state.replaceItem('bytes-a', seeds, users, '4', { ...item, id: 4 })).toBe(true);
    await state.createItem('bytes-b', seeds, users, item, madeKey());
    // Three writes of `cost` and a pet: a fourth item does not fit.
    await state.createPet('bytes-b', pet);
    await expect(state.createItem('bytes-c', seeds, users, item, madeKey())).rejects.toBeInstanceOf(
      StoreFullError,
    );
    await state.reset('bytes-a');
    const again = await Promise.allSettled(
      [1, 2, 3].map(() => state.createItem('bytes-c', seeds, users, item, madeKey())),
    );
    expect(again.map((result) => result.status)).toEqual(
      expect.arrayContaining(['fulfilled', 'fulfilled', 'rejected']),
    );
  });

  it("drops a session's items with it, and gives back their charge", async () => {
    const state = await openState({ maxSessions: 1, maxStoreBytes: cost });
    await state.createItem('drop-a', seeds, users, item, madeKey());
    await expect(state.createItem(undefined, seeds, users, item, madeKey())).rejects.toBeInstanceOf(
      StoreFullError,
    );
    await state.beginCall('drop-b', undefined); // drops drop-a
    expect((await createUser(state, undefined, 'same')).id).toBe(4);
    await state.reset(undefined);
    await state.beginCall('drop-a', undefined);
    expect(await keysIn(state, 'drop-a', users)).toEqual(['1', '2', '3']);
  });

  itOnRedis('sessions expire by --session-ttl only on Redis; memory keeps them until the LRU')(
    'drops the items of a session unused for sessionTtl, and gives back their charge',
    async () => {
      const state = await openState({ sessionTtl: 1000, maxStoreBytes: cost });
      await state.createItem('ttl-a', seeds, users, item, madeKey());
      await expect(state.createItem('ttl-b', seeds, users, item, madeKey())).rejects.toBeInstanceOf(
        StoreFullError,
      );
      await pollUntil(async () => !(await isLive(state, 'ttl-a')), 'ttl-a expired');
      // A session opened after the expiry finds the budget given back.
      expect((await createUser(state, 'ttl-b', 'same')).id).toBe(4);
      await state.beginCall('ttl-a', undefined);
      expect(await keysIn(state, 'ttl-a', users)).toEqual(['1', '2', '3']);
    },
  );
});
