import { stringifyJson } from '../../src/json/json-codec.js';
import type { Pet } from '../../src/pets/pet.js';
import { createStoreStringify } from '../../src/store/store-file-format.js';

const pet = (id: number): Pet => ({ id, name: `p${id}`, categoryId: 1 });

describe('createStoreStringify', () => {
  it('writes the same JSON as a plain stringify, across appends, resets and bigints', () => {
    const stringify = createStoreStringify();
    const data = { nextId: 3, pets: [pet(1), pet(2)] };
    expect(stringify(data)).toBe(stringifyJson(data));
    data.pets.push({ id: 9007199254740993n, name: 'big', categoryId: 2n ** 63n - 1n });
    data.nextId = 5;
    expect(stringify(data)).toBe(stringifyJson(data));
    expect(stringify(data)).toContain('"id":9007199254740993,');
    const reset = { nextId: 2, pets: [pet(1)] }; // a reset puts a new array in place
    expect(stringify(reset)).toBe(stringifyJson(reset));
    expect(stringify({ nextId: 1, pets: [] })).toBe('{"nextId":1,"pets":[]}');
  });
});
