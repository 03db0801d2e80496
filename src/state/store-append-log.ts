import { close, constants, ftruncate, open, rename, unlink, write } from 'node:fs';
import { promisify } from 'node:util';
import { appendLogHeader } from './append-log-format.js';
import { tempPathOf } from '../util/write-file-atomically.js';
import { isMissingFile } from '../util/is-missing-file.js';

const openFile = promisify(open);
const writeFile = promisify(write);
const closeFile = promisify(close);
const renameFile = promisify(rename);
const truncateFile = promisify(ftruncate);
const unlinkFile = promisify(unlink);

const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND;

/** Writes bytes at a descriptor's position (the end, for an append); how many it wrote. */
export type WriteBytes = (fd: number, bytes: Buffer) => Promise<{ bytesWritten: number }>;

/** Writes all of `bytes` at the end of the file, again after a short write. */
async function appendAll(fd: number, bytes: Buffer, write: WriteBytes): Promise<void> {
  let rest = bytes;
  while (rest.length > 0) {
    const { bytesWritten } = await write(fd, rest);
    rest = rest.subarray(bytesWritten);
  }
}

/**
 * The append log of a store file, kept open for appends. Calls must not overlap (the store's writes
 * never do). An append resolves once its lines are in the file (in the page cache, as a write is).
 * The append log is a plain descriptor, not a FileHandle: a store dropped without a flush (as tests
 * do) must not leave a handle for the garbage collector to close, which Node warns about.
 */
export class StoreAppendLog {
  readonly #path: string;
  readonly #write: WriteBytes;
  #fd: number | undefined;
  #size = 0;

  /** `path`: the append log's own path (appendLogPathOf the store file); `write`: fs.write. */
  constructor(path: string, write: WriteBytes = writeFile) {
    this.#path = path;
    this.#write = write;
  }

  /** Bytes in the append log; 0 when there is none. */
  get size(): number {
    return this.#size;
  }

  /**
   * Appends `lines` (each ending in a newline). A new append log is written with its header (the
   * digest of the file version it extends) to a temporary file that is then renamed in place,
   * so that an append log is never seen without its header. A failed append is cut off again.
   */
  async append(digest: string, lines: string): Promise<void> {
    const current = this.#fd;
    if (current !== undefined) {
      const bytes = Buffer.from(lines);
      try {
        await appendAll(current, bytes, this.#write);
      } catch (error) {
        // A disk that fills up mid-append leaves some of its lines whole: a restart would bring
        // back pets whose creates were answered 500.
        await truncateFile(current, this.#size).catch(() => undefined);
        throw error;
      }
      this.#size += bytes.length;
      return;
    }
    const temp = tempPathOf(this.#path);
    const fd = await openFile(temp, APPEND);
    try {
      const bytes = Buffer.from(appendLogHeader(digest) + lines);
      await appendAll(fd, bytes, this.#write);
      await renameFile(temp, this.#path);
      this.#fd = fd;
      this.#size = bytes.length;
    } catch (error) {
      await closeFile(fd);
      throw error;
    }
  }

  /**
   * Renames the append log aside (`<append log>.stale-<time>`), never deleting it, and says where: for a
   * append log that does not extend the store file, whose pets may be nowhere else.
   */
  async keepAside(now: Date = new Date()): Promise<string> {
    const aside = `${this.#path}.stale-${now.toISOString().replace(/[:.]/g, '-')}`;
    await renameFile(this.#path, aside);
    return aside;
  }

  /** Closes and deletes the append log: for when the store file has been written whole. */
  async remove(): Promise<void> {
    const fd = this.#fd;
    this.#fd = undefined;
    this.#size = 0;
    if (fd !== undefined) await closeFile(fd);
    try {
      await unlinkFile(this.#path);
    } catch (error) {
      if (!isMissingFile(error)) throw error;
    }
  }
}
