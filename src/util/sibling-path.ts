import { basename, dirname, join } from 'node:path';

/** A hidden file beside `path` for one of its uses, e.g. `/data/.pets.json.lock`. */
export function hiddenSiblingOf(path: string, use: 'tmp' | 'journal' | 'lock'): string {
  return join(dirname(path), `.${basename(path)}.${use}`);
}
