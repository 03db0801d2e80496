import { createHash } from 'node:crypto';
import {
  digestOf,
  appendLogHeader,
  appendLogPathOf,
  appendLogEntriesFor,
} from '../../src/state/append-log-format.js';

const DIGEST = 'ab'.repeat(32);

describe('the store append log format', () => {
  it('lives next to the store file, hidden', () => {
    expect(appendLogPathOf('/data/pets.json')).toBe('/data/.pets.json.journal');
  });

  it('names the file version by the SHA-256 of its content, however it is cut in chunks', () => {
    const whole = createHash('sha256').update('{"nextId":1,"pets":[]}').digest('hex');
    expect(digestOf([Buffer.from('{"nextId":1,'), Buffer.from('"pets":[]}')])).toBe(whole);
  });

  it('reads back the entries, keeping int64 digits', () => {
    const text = `${appendLogHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\n{"id":9223372036854775807,"name":"b","categoryId":2}\n`;
    expect(appendLogEntriesFor(text, 'j', DIGEST)).toEqual([
      { id: 1, name: 'a', categoryId: 1 },
      { id: 9223372036854775807n, name: 'b', categoryId: 2 },
    ]);
  });

  it('leaves out a last line cut short by a crash', () => {
    const text = `${appendLogHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\n{"id":2,"na`;
    expect(appendLogEntriesFor(text, 'j', DIGEST)).toEqual([{ id: 1, name: 'a', categoryId: 1 }]);
  });

  it('is no append log of this file without a whole header naming its digest', () => {
    expect(appendLogEntriesFor('', 'j', DIGEST)).toBeNull();
    expect(appendLogEntriesFor('{"sha256":"ab', 'j', DIGEST)).toBeNull();
    expect(appendLogEntriesFor('{"id":1}\n', 'j', DIGEST)).toBeNull();
    expect(appendLogEntriesFor('{"sha256":1}\n', 'j', DIGEST)).toBeNull();
    expect(appendLogEntriesFor(appendLogHeader(DIGEST), 'j', DIGEST)).toEqual([]);
  });

  it('ignores an append log of another file version, whatever its lines hold', () => {
    const other = `${appendLogHeader('cd'.repeat(32))}not json\n`;
    expect(appendLogEntriesFor(other, 'j', DIGEST)).toBeNull();
  });

  it('refuses an entry of its own file that is not JSON, naming the line and the way out', () => {
    const bad = `${appendLogHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\nnot json\n`;
    expect(() => appendLogEntriesFor(bad, '/d/.p.journal', DIGEST)).toThrow(
      /^\/d\/\.p\.journal: line 3 is not JSON \(.+\); deleting the append log loses the pets created since the last clean stop$/,
    );
  });
});
