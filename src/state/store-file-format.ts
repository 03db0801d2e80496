import { stringifyJson } from '../util/json-codec.js';
import type { Pet } from './pet.js';
import { AppendBuffer } from './append-buffer.js';
import type { StoreData } from './store-data.js';

/** What `update` found: the JSON of each pet added since, and whether the list was a new one. */
export interface StoreTextUpdate {
  /** A new pet list (the first update, or a reset): it was serialized from the start. */
  restarted: boolean;
  /** The JSON text of each pet serialized by this update, in order. */
  added: string[];
}

/**
 * The text of a store file, `{"nextId":…,"pets":[…]}`, kept up to date pet by pet: stored pets
 * never change and new ones are appended, so each pet is serialized once, and the bytes of the
 * pets already serialized are handed out as they are: no 1 MB string is rebuilt per write.
 */
export class StoreFileText {
  #pets: readonly Pet[] | undefined;
  #serialized = 0;
  #body = new AppendBuffer();

  /** Serializes the pets added to `data` since the last update. */
  update(data: StoreData): StoreTextUpdate {
    const restarted = data.pets !== this.#pets || data.pets.length < this.#serialized;
    if (restarted) {
      this.#pets = data.pets;
      this.#serialized = 0;
      this.#body = new AppendBuffer();
    }
    const added: string[] = [];
    for (; this.#serialized < data.pets.length; this.#serialized += 1) {
      const json = stringifyJson(data.pets[this.#serialized]);
      this.#body.append(this.#serialized === 0 ? json : `,${json}`);
      added.push(json);
    }
    return { restarted, added };
  }

  /** The whole file for `data` (updated first), as chunks that later updates leave unchanged. */
  chunks(data: StoreData): Buffer[] {
    this.update(data);
    const head = Buffer.from(`{"nextId":${stringifyJson(data.nextId)},"pets":[`);
    return [head, this.#body.bytes, Buffer.from(']}')];
  }
}
