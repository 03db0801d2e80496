import { stringifyJson } from '../json/json-codec.js';
import type { Pet } from '../pets/pet.js';
import type { StoreData } from './store-data.js';

/**
 * Writes StoreData as `{"nextId":…,"pets":[…]}`, serializing each pet once: stored pets never
 * change and new ones are appended, so a save after a create only serializes the new pets (the
 * file is still written whole, and atomically, by the adapter). A reset (a new array) starts over.
 */
export function createStoreStringify(): (data: StoreData) => string {
  let pets: readonly Pet[] | undefined;
  let serialized = 0;
  let text = '';
  return (data) => {
    if (data.pets !== pets || data.pets.length < serialized) {
      pets = data.pets;
      serialized = 0;
      text = '';
    }
    for (; serialized < data.pets.length; serialized += 1) {
      text += `${serialized === 0 ? '' : ','}${stringifyJson(data.pets[serialized])}`;
    }
    return `{"nextId":${stringifyJson(data.nextId)},"pets":[${text}]}`;
  };
}
