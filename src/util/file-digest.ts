import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A short digest of texts, each delimited by its length: what a reload compares. */
export function digestOf(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${String(text.length)}:${text}`);
  return hash.digest('hex').slice(0, 16);
}

/** The text of a file for its digest; a file that cannot be read digests as its error. */
export function textOf(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return `unreadable: ${String(error)}`;
  }
}

/** The digest of files' texts, in their order. */
export function digestOfFiles(paths: readonly string[]): string {
  return digestOf(paths.map(textOf));
}
