import { createHash } from 'node:crypto';
import {
  digestOf,
  journalHeader,
  journalPathOf,
  parseJournal,
} from '../../src/store/journal-format.js';

const DIGEST = 'ab'.repeat(32);

describe('the store journal format', () => {
  it('lives next to the store file, hidden', () => {
    expect(journalPathOf('/data/pets.json')).toBe('/data/.pets.json.journal');
  });

  it('names the file version by the SHA-256 of its content, however it is cut in chunks', () => {
    const whole = createHash('sha256').update('{"nextId":1,"pets":[]}').digest('hex');
    expect(digestOf([Buffer.from('{"nextId":1,'), Buffer.from('"pets":[]}')])).toBe(whole);
  });

  it('reads back the header and the entries, keeping int64 digits', () => {
    const text = `${journalHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\n{"id":9223372036854775807,"name":"b","categoryId":2}\n`;
    expect(parseJournal(text, 'j')).toEqual({
      sha256: DIGEST,
      entries: [
        { id: 1, name: 'a', categoryId: 1 },
        { id: 9223372036854775807n, name: 'b', categoryId: 2 },
      ],
    });
  });

  it('leaves out a last line cut short by a crash', () => {
    const text = `${journalHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\n{"id":2,"na`;
    expect(parseJournal(text, 'j')?.entries).toEqual([{ id: 1, name: 'a', categoryId: 1 }]);
  });

  it('is no journal without a whole header', () => {
    expect(parseJournal('', 'j')).toBeNull();
    expect(parseJournal('{"sha256":"ab', 'j')).toBeNull();
    expect(parseJournal(journalHeader(DIGEST), 'j')).toEqual({ sha256: DIGEST, entries: [] });
  });

  it('refuses a whole line that is not JSON, or a header that is not one, naming the line', () => {
    const bad = `${journalHeader(DIGEST)}{"id":1,"name":"a","categoryId":1}\nnot json\n`;
    expect(() => parseJournal(bad, '/d/.p.journal')).toThrow('/d/.p.journal: line 3 is not JSON');
    expect(() => parseJournal('{"id":1}\n', 'j')).toThrow('j: line 1: not a journal header');
    expect(() => parseJournal('{"sha256":1}\n', 'j')).toThrow('j: line 1: not a journal header');
  });
});
