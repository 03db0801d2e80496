import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempPathOf, writeFileAtomically } from '../../src/util/write-file-atomically.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(() => {
  removeTmpDir(dir);
});

describe('writeFileAtomically', () => {
  it('writes the chunks, in order, to a new file and leaves no temporary file', async () => {
    const path = join(dir, 'store.json');
    await writeFileAtomically(path, [Buffer.from('{"a":'), Buffer.from(''), Buffer.from('1}')]);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    expect(readdirSync(dir)).toEqual(['store.json']);
  });

  it('replaces a longer file whole, again and again', async () => {
    const path = join(dir, 'store.json');
    writeFileSync(path, 'x'.repeat(10_000));
    for (let round = 0; round < 20; round += 1) {
      await writeFileAtomically(path, [Buffer.from(`round ${round}`)]);
      expect(readFileSync(path, 'utf8')).toBe(`round ${round}`);
    }
    expect(readdirSync(dir)).toEqual(['store.json']);
  });

  it('writes large contents made of many chunks exactly', async () => {
    const path = join(dir, 'store.json');
    const chunks = Array.from({ length: 300 }, (_, i) => Buffer.alloc(7_001, 97 + (i % 26)));
    await writeFileAtomically(path, chunks);
    expect(readFileSync(path).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('ignores a temporary file left by an earlier crash', async () => {
    const path = join(dir, 'store.json');
    writeFileSync(tempPathOf(path), 'half a wri');
    await writeFileAtomically(path, [Buffer.from('whole')]);
    expect(readFileSync(path, 'utf8')).toBe('whole');
    expect(existsSync(tempPathOf(path))).toBe(false);
  });

  it('fails, leaving the file as it was, when the temporary file cannot be written', async () => {
    const path = join(dir, 'store.json');
    writeFileSync(path, 'old');
    mkdirSync(tempPathOf(path)); // a directory where the temporary file would go
    await expect(writeFileAtomically(path, [Buffer.from('new')])).rejects.toThrow();
    expect(readFileSync(path, 'utf8')).toBe('old');
  });

  it('fails when the file cannot be replaced, and leaves what was there', async () => {
    const path = join(dir, 'store.json');
    mkdirSync(join(path, 'inside'), { recursive: true }); // a non-empty directory at the path
    await expect(writeFileAtomically(path, [Buffer.from('new')])).rejects.toThrow();
    expect(readdirSync(path)).toEqual(['inside']);
  });

  it('fails when the directory does not exist', async () => {
    const path = join(dir, 'missing', 'store.json');
    await expect(writeFileAtomically(path, [Buffer.from('new')])).rejects.toThrow(/ENOENT/);
  });
});
