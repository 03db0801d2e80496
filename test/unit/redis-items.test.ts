// How the Redis state keeps items in key order (src/state/redis-items.ts): the order codes it
// lists by, and the JSON a create sends around a key the script makes. Pure: no Redis here (the
// scripts' side runs in test/integration/mock-state-items.test.ts on the redis project).
import { compareKeys } from '../../src/state/item.js';
import { createItemArgs, orderCode } from '../../src/state/redis-items.js';
import { itemCost } from '../../src/state/store-limits.js';
import { stringifyJson } from '../../src/util/json-codec.js';

/** Keys around every edge of the order: signs, zeros, int64's bounds, digits past them, text. */
const KEYS = [
  '0',
  '-0',
  '+0',
  '00',
  '7',
  '07',
  '+7',
  '-7',
  '-07',
  '10',
  '9',
  '-10',
  '-9',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775806',
  '9223372036854775807',
  '-9223372036854775808',
  '-9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '00000000000000000001',
  '',
  ' ',
  'a',
  'A',
  'ab',
  'b',
  'blue',
  '1a',
  '-',
  '+',
  'é',
  '\uffff',
  '\uff01',
  '😀',
  '\ud800',
  '00000000-0000-4000-8000-000000000001',
];

const byCode = (a: string, b: string): number => {
  const x = orderCode(a);
  const y = orderCode(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

describe('the order codes of item keys on Redis', () => {
  it('list keys in compareKeys order, each pair as compareKeys orders it', () => {
    for (const a of KEYS) {
      for (const b of KEYS)
        expect([a, b, Math.sign(byCode(a, b))]).toEqual([a, b, Math.sign(compareKeys(a, b))]);
    }
    expect([...KEYS].sort(byCode)).toEqual([...KEYS].sort(compareKeys));
  });

  it('are ASCII, so that bytes and code units order them alike, and one per key', () => {
    const codes = KEYS.map(orderCode);
    for (const code of codes) expect(code).toMatch(/^[\x20-\x7e]+$/);
    expect(new Set(codes).size).toBe(KEYS.length);
  });

  it('carry an int64 key as its digits', () => {
    expect(orderCode('9223372036854775807')).toBe('19223372036854775807 9223372036854775807');
    expect(orderCode('7')).toBe('10000000000000000007 7');
    expect(orderCode('-1')).toBe('09999999999999999998 -1');
    expect(orderCode('ab')).toBe('200610062');
  });
});

describe('what a create sends about a key the script makes', () => {
  it.each([
    ['after the other properties', { name: 'n', n: 9007199254740993n }, 'id'],
    ['in the place the item already has it', { id: 'x', name: 'n' }, 'id'],
    ['whatever the JSON around it', { a: '0', b: [0, 1], c: { id: 0 } }, 'id'],
  ])('is the JSON around it, %s, and the charge but for it', (_label, item, property) => {
    const args = createItemArgs(item, { property, chosen: undefined, kind: 'integer' });
    const stored = { ...item, [property]: 12345 };
    expect(`${args.jsonBefore}12345${args.jsonAfter}`).toBe(stringifyJson(stored));
    expect(Number(args.costWithoutKey) + '12345'.length).toBe(itemCost(stored));
    expect([args.made, args.key, args.order, args.counterFloor]).toEqual(['integer', '', '', '']);
  });

  it("is the whole JSON under the client's key, and the least the counter may be after it", () => {
    const args = createItemArgs({ name: 'n' }, { property: 'id', chosen: 9223372036854775806n });
    expect(args).toEqual({
      made: '',
      key: '9223372036854775806',
      order: orderCode('9223372036854775806'),
      counterFloor: '9223372036854775807',
      jsonBefore: '{"name":"n","id":9223372036854775806}',
      jsonAfter: '',
      costWithoutKey: String(itemCost({ name: 'n', id: 9223372036854775806n })),
    });
    const text = createItemArgs({}, { property: 'name', chosen: 'alice' });
    expect([text.key, text.counterFloor]).toEqual(['alice', '']);
    expect(createItemArgs({}, { property: 'id', chosen: -3 }).counterFloor).toBe('');
  });
});
