import { listAnswer, pageOf } from '../../src/api/resource-list.js';
import type { ListShape } from '../../src/contract/resource-model.js';

const ITEMS = [
  { id: 1, price: 7.5, tag: 'a' },
  { id: 2, price: 3, tag: 'b' },
  { id: 3, price: 7.5, tag: 'b' },
  { id: 10, price: 1, tag: 'a' },
];

function shape(start: 'after' | 'cursor' | 'offset', more: Partial<ListShape> = {}): ListShape {
  return {
    itemsProperty: 'data',
    totalProperty: undefined,
    next: undefined,
    filters: [
      { parameter: 'price', property: 'price' },
      { parameter: 'tag', property: 'tag' },
    ],
    paging: {
      size: { parameter: 'limit', default: 2, maximum: undefined },
      start: { parameter: 'from', kind: start, first: 0 },
    },
    ...more,
  };
}

const ids = (items: readonly Record<string, unknown>[]) => items.map((item) => item.id);

describe('pageOf: a list query over a collection in key order', () => {
  it('starts after a key that is gone or filtered out, at the next key above it', () => {
    const without2 = ITEMS.filter((item) => item.id !== 2);
    expect(ids(pageOf(without2, shape('after'), 'id', { from: '2' }).items)).toEqual([3, 10]);
    // 2 is not an "a": the page starts after it all the same.
    expect(ids(pageOf(ITEMS, shape('after'), 'id', { from: '2', tag: 'a' }).items)).toEqual([10]);
  });

  it('takes a size below 1 as not given', () => {
    expect(ids(pageOf(ITEMS, shape('offset'), 'id', { limit: -1 }).items)).toEqual([1, 2]);
    expect(ids(pageOf(ITEMS, shape('offset'), 'id', { limit: 0 }).items)).toEqual([1, 2]);
  });

  it('filters numbers by value, however the query writes them', () => {
    const all = { limit: 50 };
    expect(ids(pageOf(ITEMS, shape('offset'), 'id', { ...all, price: '7.50' }).items)).toEqual([
      1, 3,
    ]);
    expect(ids(pageOf(ITEMS, shape('offset'), 'id', { ...all, price: 7.5 }).items)).toEqual([1, 3]);
    expect(ids(pageOf(ITEMS, shape('offset'), 'id', { ...all, tag: ['a', 'b'] }).items)).toEqual([
      1, 2, 3, 10,
    ]);
  });

  it('gives the next cursor, and a has_more that says whether another page follows', () => {
    const cursorShape = shape('cursor', { next: { property: 'meta.next', kind: 'cursor' } });
    const first = pageOf(ITEMS, cursorShape, 'id', {});
    const envelope = { data: [], has_more: false, meta: { next: 'x', page: 1 } };
    const body = listAnswer(first, cursorShape, envelope, () => '');
    expect(body).toMatchObject({ has_more: true, meta: { next: first.nextStart, page: 1 } });
    const second = pageOf(ITEMS, cursorShape, 'id', { from: first.nextStart });
    expect(ids(second.items)).toEqual([3, 10]);
    const last = listAnswer(second, cursorShape, envelope, () => '');
    expect(last).toEqual({ data: second.items, has_more: false, meta: { page: 1 } });
  });
});
