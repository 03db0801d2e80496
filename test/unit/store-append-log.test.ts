import { existsSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { appendLogHeader } from '../../src/state/append-log-format.js';
import { StoreAppendLog, type WriteBytes } from '../../src/state/store-append-log.js';
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

describe('StoreAppendLog', () => {
  it('starts an append log with its header, then appends to it', async () => {
    const appendLog = new StoreAppendLog(path);
    expect(appendLog.size).toBe(0);
    await appendLog.append(DIGEST, 'one\n');
    expect(readFileSync(path, 'utf8')).toBe(`${appendLogHeader(DIGEST)}one\n`);
    await appendLog.append('ignored once started', 'two\nthree\n');
    const text = `${appendLogHeader(DIGEST)}one\ntwo\nthree\n`;
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(appendLog.size).toBe(Buffer.byteLength(text));
    expect(readdirSync(dir)).toEqual(['.store.json.journal']);
    await appendLog.remove();
  });

  it('removes the append log; the next append starts a new one', async () => {
    const appendLog = new StoreAppendLog(path);
    await appendLog.append(DIGEST, 'old ✓\n');
    await appendLog.remove();
    expect(existsSync(path)).toBe(false);
    expect(appendLog.size).toBe(0);
    await appendLog.append('ef'.repeat(32), 'new\n');
    expect(readFileSync(path, 'utf8')).toBe(`${appendLogHeader('ef'.repeat(32))}new\n`);
    await appendLog.remove();
    await appendLog.remove(); // nothing left to remove
  });

  it('writes over a stale append log and a temporary file left by a crash', async () => {
    writeFileSync(path, 'stale append log\n');
    writeFileSync(tempPathOf(path), 'half a jou');
    const appendLog = new StoreAppendLog(path);
    await appendLog.append(DIGEST, 'fresh\n');
    expect(readFileSync(path, 'utf8')).toBe(`${appendLogHeader(DIGEST)}fresh\n`);
    expect(readdirSync(dir)).toEqual(['.store.json.journal']);
    await appendLog.remove();
  });

  it('fails to start an append log where it cannot be written', async () => {
    const appendLog = new StoreAppendLog(join(dir, 'missing', '.j'));
    await expect(appendLog.append(DIGEST, 'x\n')).rejects.toThrow(/ENOENT/);
    expect(appendLog.size).toBe(0);
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
    const appendLog = new StoreAppendLog(path, write);
    await appendLog.append(DIGEST, 'one\n');
    const before = readFileSync(path, 'utf8');
    room = 'two\nthree\nfo'.length;
    await expect(appendLog.append(DIGEST, 'two\nthree\nfour\n')).rejects.toThrow('ENOSPC');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(appendLog.size).toBe(Buffer.byteLength(before));
    room = Infinity;
    await appendLog.append(DIGEST, 'five\n');
    expect(readFileSync(path, 'utf8')).toBe(`${before}five\n`);
    await appendLog.remove();
  });
});
