import { readFile, unlink, writeFile } from 'node:fs/promises';
import { hiddenSiblingOf } from './sibling-path.js';
import { isRecord } from '../util/is-record.js';

/** Where the lock of the store file at `path` is: next to it, hidden. */
export function lockPathOf(path: string): string {
  return hiddenSiblingOf(path, 'lock');
}

function isLive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is another user's.
    return isRecord(error) && error.code === 'EPERM';
  }
}

/**
 * Takes the store file for this process: one mock per file, as two would each append to a
 * journal the other one replaces (and lose acknowledged pets). The lock is a file holding the
 * owner's pid; a lock left by a process that is gone (killed) is taken over. Resolves to its
 * release. Throws, naming the owner, when a live process holds it.
 */
export async function lockStoreFile(path: string): Promise<() => Promise<void>> {
  const lockPath = lockPathOf(path);
  const mine = String(process.pid);
  try {
    await writeFile(lockPath, mine, { flag: 'wx' });
  } catch (error) {
    if (!isRecord(error) || error.code !== 'EEXIST') throw error;
    const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isLive(owner)) {
      throw new Error(
        `the store file ${path} is in use by process ${owner} (one mock per --db file; if that process is no mock, delete ${lockPath})`,
      );
    }
    await writeFile(lockPath, mine); // a stale lock (its process is gone), or this process's own
  }
  return async () => {
    const owner = await readFile(lockPath, 'utf8').catch(() => '');
    if (owner.trim() === mine) await unlink(lockPath).catch(() => undefined);
  };
}
