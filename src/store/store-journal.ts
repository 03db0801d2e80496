import { close, constants, ftruncate, open, rename, unlink, write } from 'node:fs';
import { promisify } from 'node:util';
import { isRecord } from '../util/is-record.js';
import { journalHeader } from './journal-format.js';
import { tempPathOf } from './write-file-atomically.js';

const openFile = promisify(open);
const writeFile = promisify(write);
const closeFile = promisify(close);
const renameFile = promisify(rename);
const unlinkFile = promisify(unlink);
const truncateFile = promisify(ftruncate);

const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND;

/** Writes all of `bytes` at the end of the file, again after a short write. */
async function appendAll(fd: number, bytes: Buffer): Promise<void> {
  let rest = bytes;
  while (rest.length > 0) {
    const { bytesWritten } = await writeFile(fd, rest);
    rest = rest.subarray(bytesWritten);
  }
}

/**
 * The journal of a store file, kept open for appends. Calls must not overlap (the store's writes
 * never do). An append resolves once its lines are in the file (in the page cache, as a write is).
 * The journal is a plain descriptor, not a FileHandle: a store dropped without a flush (as tests
 * do) must not leave a handle for the garbage collector to close, which Node warns about.
 */
export class StoreJournal {
  readonly #path: string;
  #fd: number | undefined;
  #size = 0;

  /** `path`: the journal's own path (journalPathOf the store file). */
  constructor(path: string) {
    this.#path = path;
  }

  /** Bytes in the journal; 0 when there is none. */
  get size(): number {
    return this.#size;
  }

  /**
   * Appends `lines` (each ending in a newline). A new journal is written with its header (the
   * digest of the file version it extends) to a temporary file that is then renamed in place,
   * so that a journal is never seen without its header.
   */
  async append(digest: string, lines: string): Promise<void> {
    if (this.#fd !== undefined) {
      const fd = this.#fd;
      const bytes = Buffer.from(lines);
      try {
        await appendAll(fd, bytes);
      } catch (error) {
        // A full disk may take some of the lines: cut them off, or a restart would load pets whose
        // creates were answered 500 (a last line cut short is dropped on reading anyway).
        await truncateFile(fd, this.#size).catch(() => undefined);
        throw error;
      }
      this.#size += bytes.length;
      return;
    }
    const temp = tempPathOf(this.#path);
    const fd = await openFile(temp, APPEND);
    try {
      const bytes = Buffer.from(journalHeader(digest) + lines);
      await appendAll(fd, bytes);
      await renameFile(temp, this.#path);
      this.#fd = fd;
      this.#size = bytes.length;
    } catch (error) {
      await closeFile(fd);
      throw error;
    }
  }

  /**
   * Renames the journal aside (`<journal>.stale-<time>`), never deleting it, and says where: for a
   * journal that does not extend the store file, whose pets may be nowhere else.
   */
  async keepAside(now: Date = new Date()): Promise<string> {
    const aside = `${this.#path}.stale-${now.toISOString().replace(/[:.]/g, '-')}`;
    await renameFile(this.#path, aside);
    return aside;
  }

  /** Closes and deletes the journal: for when the store file has been written whole. */
  async remove(): Promise<void> {
    const fd = this.#fd;
    this.#fd = undefined;
    this.#size = 0;
    if (fd !== undefined) await closeFile(fd);
    try {
      await unlinkFile(this.#path);
    } catch (error) {
      if (!isRecord(error) || error.code !== 'ENOENT') throw error;
    }
  }
}
