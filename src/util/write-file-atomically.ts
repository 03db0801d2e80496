import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { hiddenSiblingOf } from './sibling-path.js';

/** Writes all of `chunks` from the current position, again after a short write. */
async function writeAll(file: FileHandle, chunks: readonly Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await file.writev(rest);
    while (rest[0] !== undefined && bytesWritten >= rest[0].length) {
      bytesWritten -= rest[0].length;
      rest = rest.slice(1);
    }
    if (rest[0] !== undefined) rest = [rest[0].subarray(bytesWritten), ...rest.slice(1)];
  }
}

/** The temporary file next to `path` that a write goes to first (lowdb's name for it). */
export function tempPathOf(path: string): string {
  return hiddenSiblingOf(path, 'tmp');
}

/**
 * Replaces the file at `path` with `chunks`, as lowdb's writer does: written to a temporary file
 * next to it, synced, then renamed over it, so the file holds the old content or the new, never a
 * part.
 * Resolves once the new content is in place. Calls must not overlap for the same path.
 */
export async function writeFileAtomically(path: string, chunks: readonly Buffer[]): Promise<void> {
  const temp = tempPathOf(path);
  const file = await open(temp, 'w');
  try {
    await writeAll(file, chunks);
    // On the disk before the rename: otherwise a power loss after it can leave an empty file on
    // some file systems, and the whole store lost. Whole writes are rare (start, reset, stop).
    await file.sync();
  } catch (error) {
    await file.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await file.close();
  await rename(temp, path);
}
