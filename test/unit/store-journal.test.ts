import { existsSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { journalHeader } from '../../src/state/journal-format.js';
import { StoreJournal, type WriteBytes } from '../../src/state/store-journal.js';
import { tempPathOf } from '../../src/util/write-file-atomically.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

const DIGEST = 'cd'.repeat(32);
let dir: string;
let path: string;

beforeEach(() => {
  dir = makeTmpDir();
  path = join(dir, '.store.json.journal');
});

afterEach(() => {
  removeTmpDir(dir);
});

describe('StoreJournal', () => {
  it('starts a journal with its header, then appends to it', async () => {
    const journal = new StoreJournal(path);
    expect(journal.size).toBe(0);
    await journal.append(DIGEST, 'one\n');
    expect(readFileSync(path, 'utf8')).toBe(`${journalHeader(DIGEST)}one\n`);
    await journal.append('ignored once started', 'two\nthree\n');
    const text = `${journalHeader(DIGEST)}one\ntwo\nthree\n`;
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(journal.size).toBe(Buffer.byteLength(text));
    expect(readdirSync(dir)).toEqual(['.store.json.journal']);
    await journal.remove();
  });

  it('removes the journal; the next append starts a new one', async () => {
    const journal = new StoreJournal(path);
    await journal.append(DIGEST, 'old ✓\n');
    await journal.remove();
    expect(existsSync(path)).toBe(false);
    expect(journal.size).toBe(0);
    await journal.append('ef'.repeat(32), 'new\n');
    expect(readFileSync(path, 'utf8')).toBe(`${journalHeader('ef'.repeat(32))}new\n`);
    await journal.remove();
    await journal.remove(); // nothing left to remove
  });

  it('writes over a stale journal and a temporary file left by a crash', async () => {
    writeFileSync(path, 'stale journal\n');
    writeFileSync(tempPathOf(path), 'half a jou');
    const journal = new StoreJournal(path);
    await journal.append(DIGEST, 'fresh\n');
    expect(readFileSync(path, 'utf8')).toBe(`${journalHeader(DIGEST)}fresh\n`);
    expect(readdirSync(dir)).toEqual(['.store.json.journal']);
    await journal.remove();
  });

  it('fails to start a journal where it cannot be written', async () => {
    const journal = new StoreJournal(join(dir, 'missing', '.j'));
    await expect(journal.append(DIGEST, 'x\n')).rejects.toThrow(/ENOENT/);
    expect(journal.size).toBe(0);
  });

  it('cuts a failed append off, the lines it wrote whole included', async () => {
    // A disk that fills up mid-append: a short write (two whole lines and a part), then ENOSPC.
    let room = Infinity;
    const write: WriteBytes = (fd, bytes) => {
      if (room === 0) return Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
      const bytesWritten = writeSync(fd, bytes, 0, Math.min(bytes.length, room));
      room -= bytesWritten;
      return Promise.resolve({ bytesWritten });
    };
    const journal = new StoreJournal(path, write);
    await journal.append(DIGEST, 'one\n');
    const before = readFileSync(path, 'utf8');
    room = 'two\nthree\nfo'.length;
    await expect(journal.append(DIGEST, 'two\nthree\nfour\n')).rejects.toThrow('ENOSPC');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(journal.size).toBe(Buffer.byteLength(before));
    room = Infinity;
    await journal.append(DIGEST, 'five\n');
    expect(readFileSync(path, 'utf8')).toBe(`${before}five\n`);
    await journal.remove();
  });
});
