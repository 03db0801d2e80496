import { parseJson, stringifyJson } from '../../src/util/json-codec.js';
import type { Pet } from '../../src/state/pet.js';
import type { StoreData } from '../../src/state/store-data.js';
import { StoreFileText } from '../../src/state/store-file-format.js';

const pet = (id: number): Pet => ({ id, name: `p${id}`, categoryId: 1 });

const joined = (chunks: readonly Buffer[]): string => Buffer.concat(chunks).toString('utf8');

describe('StoreFileText', () => {
  it('writes the same JSON as a plain stringify, across appends, resets and bigints', () => {
    const text = new StoreFileText();
    const data: StoreData = { nextId: 3, pets: [pet(1), pet(2)] };
    expect(joined(text.chunks(data))).toBe(stringifyJson(data));
    data.pets.push({ id: 9007199254740993n, name: 'big', categoryId: 2n ** 63n - 1n });
    data.nextId = 9007199254740994n;
    expect(joined(text.chunks(data))).toBe(stringifyJson(data));
    expect(joined(text.chunks(data))).toContain('"id":9007199254740993,');
    const reset = { nextId: 2, pets: [pet(1)] }; // a reset puts a new array in place
    expect(joined(text.chunks(reset))).toBe(stringifyJson(reset));
    expect(joined(text.chunks({ nextId: 1, pets: [] }))).toBe('{"nextId":1,"pets":[]}');
  });

  it('tells the JSON of the pets added since the last update, and when the list is new', () => {
    const text = new StoreFileText();
    const data: StoreData = { nextId: 2, pets: [pet(1)] };
    expect(text.update(data)).toEqual({ restarted: true, added: [stringifyJson(pet(1))] });
    expect(text.update(data)).toEqual({ restarted: false, added: [] });
    data.pets.push(pet(2), pet(3));
    expect(text.update(data)).toEqual({
      restarted: false,
      added: [stringifyJson(pet(2)), stringifyJson(pet(3))],
    });
    const reset: StoreData = { nextId: 2, pets: [pet(1)] };
    expect(text.update(reset)).toEqual({ restarted: true, added: [stringifyJson(pet(1))] });
  });

  it('keeps names with multi-byte characters exact', () => {
    const text = new StoreFileText();
    const data: StoreData = { nextId: 2, pets: [{ id: 1, name: 'Mïa 🐈 "q"\n', categoryId: 1 }] };
    expect(parseJson(joined(text.chunks(data)))).toEqual(data);
  });

  it('leaves the chunks of an earlier write unchanged by later ones', () => {
    const text = new StoreFileText();
    const data: StoreData = { nextId: 2, pets: [pet(1)] };
    const first = text.chunks(data);
    const before = joined(first);
    for (let id = 2; id <= 3000; id += 1) {
      data.pets.push(pet(id));
      data.nextId = id + 1;
      text.update(data);
    }
    expect(joined(first)).toBe(before);
    expect(joined(text.chunks(data))).toBe(stringifyJson(data));
  });

  it('serializes each stored pet once, however many writes follow', () => {
    const text = new StoreFileText();
    let reads = 0;
    const counted = (id: number): Pet => ({
      get id() {
        reads += 1;
        return id;
      },
      name: `p${id}`,
      categoryId: 1,
    });
    const data: StoreData = { nextId: 3, pets: [counted(1), counted(2)] };
    text.chunks(data);
    text.chunks(data);
    data.pets.push(counted(3));
    text.update(data);
    text.chunks(data);
    expect(reads).toBe(3);
  });
});
