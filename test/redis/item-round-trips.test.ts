// How many round trips to Redis an item call makes (issue 30): a read one, a write one, and two
// the first time a session writes to a place (the second brings the place's seeds to copy).
import { placeId, type Item, type ItemPlace, type NewKey } from '../../src/state/item.js';
import type { ItemSeeds } from '../../src/state/item-seeds.js';
import { RedisState } from '../../src/state/redis-state.js';
import { storeDataFrom } from '../../src/state/store-data.js';
import { freshPrefix, testRedisUrl, TEST_STATE_TIMEOUT_MS } from '../helpers/state-backend.js';

const users: ItemPlace = { resource: 'users', parents: [] };
const SEEDED: readonly Item[] = [
  { id: 1, name: 'ann' },
  { id: 2, name: 'bob' },
];
const seeds: ItemSeeds = {
  itemsOf: (place) => Promise.resolve(placeId(place) === 'users' ? SEEDED : []),
  firstCounter: () => 3,
  keyOf: () => 'id',
};
const made: NewKey = { property: 'id', chosen: undefined, kind: 'integer' };

let state: RedisState;
let trips = 0;

beforeAll(async () => {
  state = await RedisState.connect({
    settings: {
      stateUrl: testRedisUrl(),
      statePrefix: freshPrefix(),
      stateTimeout: TEST_STATE_TIMEOUT_MS,
      sessionTtl: 3_600_000,
      maxSessions: 10,
      maxPets: 100,
      maxStoreBytes: 1024 * 1024,
      journalSize: 10,
      journalBytes: 1024 * 1024,
    },
    initial: storeDataFrom([]),
    startupScenario: undefined,
    identity: {},
    onRoundTrip: () => {
      trips += 1;
    },
  });
});

afterAll(async () => {
  await state.close();
});

/** The round trips `call` made. */
async function tripsOf(call: () => Promise<unknown>): Promise<number> {
  const before = trips;
  await call();
  return trips - before;
}

describe('item calls on Redis', () => {
  it('read in one round trip, whether the place shows its seeds or its own items', async () => {
    expect(await tripsOf(() => state.listItems('reads', seeds, users))).toBe(1);
    expect(await tripsOf(() => state.getItem('reads', seeds, users, '1'))).toBe(1);
    await state.createItem('reads', seeds, users, { name: 'cy' }, made);
    expect(await tripsOf(() => state.listItems('reads', seeds, users))).toBe(1);
    expect(await tripsOf(() => state.getItem('reads', seeds, users, '3'))).toBe(1);
  });

  it("write in two round trips on a session's first write to a place, then in one", async () => {
    expect(await tripsOf(() => state.createItem('writes', seeds, users, {}, made))).toBe(2);
    expect(await tripsOf(() => state.createItem('writes', seeds, users, {}, made))).toBe(1);
    const item = { id: 1, name: 'al' };
    expect(await tripsOf(() => state.replaceItem('writes', seeds, users, '1', item))).toBe(1);
    expect(await tripsOf(() => state.deleteItem('writes', seeds, users, '2'))).toBe(1);
    // Another session, or the same after its reset, copies the seeds again.
    expect(await tripsOf(() => state.deleteItem('writes-b', seeds, users, '2'))).toBe(2);
    await state.reset('writes');
    expect(await tripsOf(() => state.replaceItem('writes', seeds, users, '1', item))).toBe(2);
  });
});
