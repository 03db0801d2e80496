import type { Adapter } from 'lowdb';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { digestOf, appendLogPathOf } from './append-log-format.js';
import { readStoreFileContent } from './read-store-file.js';
import type { StoreData } from './store-data.js';
import { StoreFileText } from './store-file-format.js';
import { StoreAppendLog } from './store-append-log.js';
import { writeFileAtomically } from '../util/write-file-atomically.js';
import { errorMessage } from '../util/error-message.js';

/** The append log is folded into the file once it is as large as the file, and at least this. */
export const MIN_JOURNAL_BYTES = 1024 * 1024;

/**
 * The lowdb adapter of a store file. A write after creates appends the new pets to the file's
 * append log: a few hundred bytes, where writing the file whole costs about a millisecond a MB.
 * The file is written whole (atomically, then the append log is deleted) on the first write, after
 * a reset, once the append log is as large as the file, after a failed write, and on a write that
 * adds nothing (a flush, as on shutdown). Reads put the file and its append log back together, and
 * rename aside (with a warning) an append log that does not extend the file.
 */
export function createStoreFile(
  path: string,
  checkPet: SchemaCheck,
  minAppendLogBytes = MIN_JOURNAL_BYTES,
  warn: (message: string) => void = () => undefined,
): Adapter<StoreData> {
  const text = new StoreFileText();
  const appendLog = new StoreAppendLog(appendLogPathOf(path));
  /** The file as last written whole: what the append log extends. */
  let file: { digest: string; size: number } | undefined;
  /** Set while a write is unfinished or failed: the append log may end in a partial line. */
  let mustWriteWhole = true;

  const writeWhole = async (data: StoreData): Promise<void> => {
    mustWriteWhole = true;
    const chunks = text.chunks(data);
    await writeFileAtomically(path, chunks);
    // Only after the rename: a crash before it leaves the old append log, which extends the old file.
    // The file holds everything now, so an append log that cannot be deleted fails no write: it no
    // longer extends the file, and a restart keeps it aside.
    await appendLog.remove().catch((error: unknown) => {
      warn(`the append log beside ${path} could not be deleted: ${errorMessage(error)}`);
    });
    file = { digest: digestOf(chunks), size: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
    mustWriteWhole = false;
  };

  return {
    read: async () => {
      const { data, staleAppendLog } = await readStoreFileContent(path, checkPet);
      // Moved away before anything is written: a new file with the same content as the version it
      // extended (the fixtures after 'rm pets.json', say) would otherwise bring its pets back. Kept,
      // not deleted, and said: after a hand edit of the file, its pets are nowhere else.
      if (staleAppendLog) {
        const aside = await appendLog.keepAside();
        warn(
          `the append log beside ${path} does not extend it (edited or replaced?): its ${staleAppendLog.pets} pets are not loaded; kept as ${aside}`,
        );
      }
      return data;
    },
    write: async (data) => {
      const { restarted, added } = text.update(data);
      if (restarted || mustWriteWhole || file === undefined) return writeWhole(data);
      if (added.length === 0) return appendLog.size > 0 ? writeWhole(data) : undefined;
      if (appendLog.size >= Math.max(file.size, minAppendLogBytes)) return writeWhole(data);
      mustWriteWhole = true;
      await appendLog.append(file.digest, `${added.join('\n')}\n`);
      mustWriteWhole = false;
    },
  };
}
