import { parseJson, stringifyJson, validationView } from '../../src/util/json-codec.js';

function valueOf(literal: string): unknown {
  const parsed = parseJson(`{"x":${literal}}`, true);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
  return Reflect.get(parsed, 'x');
}

describe('parseJson reads number literals by value, exactly', () => {
  it.each([
    ['12', 12],
    ['1.0', 1],
    ['1E2', 100],
    ['-2.5e1', -25],
    ['9007199254740991', 9007199254740991],
    ['1e18', 10n ** 18n],
    ['9007199254740993', 9007199254740993n],
    ['9007199254740993.0', 9007199254740993n],
    ['9223372036854775808.0', 2n ** 63n],
  ])('%s is the integer %p', (literal, expected) => {
    expect(valueOf(literal)).toBe(expected);
  });

  it.each([
    ['0.5', 0.5],
    ['-25e-1', -2.5],
    ['12.340e1', 123.4],
  ])('%s is the fraction %p', (literal, expected) => {
    expect(valueOf(literal)).toBe(expected);
  });

  it.each(['1.0000000000000001', '4503599627370496.5', '1e-400'])(
    '%s, a fraction a double would round to an integer, is no integer (NaN)',
    (literal) => {
      expect(valueOf(literal)).toBeNaN();
    },
  );

  it('keeps __proto__ an own property and refuses duplicate keys', () => {
    const parsed = parseJson('{"__proto__":{"polluted":1}}', true);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed as object)).toEqual(['__proto__']);
    expect(() => parseJson('{"a":1,"a":2}', true)).toThrow(/Duplicate key/);
  });

  it('writes bigints back digit for digit', () => {
    expect(stringifyJson({ id: 9007199254740993n, n: [1, 2n ** 63n - 1n] })).toBe(
      '{"id":9007199254740993,"n":[1,9223372036854775807]}',
    );
  });
});

describe('validationView', () => {
  it('is the value itself when it holds no bigint (no copy on each request)', () => {
    const pets = [{ id: 1, name: 'a', categoryId: 2 }];
    expect(validationView(pets)).toBe(pets);
  });

  it('is a copy with bigints as rounded numbers otherwise, the value left exact', () => {
    const pet = { id: 2n ** 63n - 1n, name: 'a', tags: [2n ** 60n, 1] };
    const view = validationView(pet);
    expect(view).toEqual({ id: 2 ** 63, name: 'a', tags: [2 ** 60, 1] });
    expect(pet.id).toBe(2n ** 63n - 1n);
  });
});
