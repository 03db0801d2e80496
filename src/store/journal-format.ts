import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { parseJson } from '../json/json-codec.js';

// The journal of a store file holds the pets created since the file was last written whole, one
// JSON line each, after a header line naming (by SHA-256) the version of the file they extend.

/** Where the journal of the store file at `path` is: next to it, hidden. */
export function journalPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.journal`);
}

/** The SHA-256 of a file's content, as the journal's header names it. */
export function digestOf(content: readonly Buffer[]): string {
  const hash = createHash('sha256');
  for (const chunk of content) hash.update(chunk);
  return hash.digest('hex');
}

/** The header line of a journal that extends the file whose digest is `digest`. */
export function journalHeader(digest: string): string {
  return `${JSON.stringify({ sha256: digest })}\n`;
}

/** The parts of a journal: the digest its header names, and its complete entries. */
export interface Journal {
  sha256: string;
  entries: unknown[];
}

/**
 * Reads a journal's text; null if it has no complete header. A last line without its newline is
 * an append cut short by a crash (never acknowledged) and is left out; any other line that is not
 * JSON is an error.
 */
export function parseJournal(text: string, path: string): Journal | null {
  const lines = text.split('\n');
  lines.pop(); // the text after the last newline: empty, or an append cut short
  const [header, ...rest] = lines;
  if (header === undefined) return null;
  const parsed = parseLine(header, path, 0);
  if (typeof parsed !== 'object' || parsed === null || !('sha256' in parsed)) {
    throw new Error(`${path}: line 1: not a journal header`);
  }
  const { sha256 } = parsed;
  if (typeof sha256 !== 'string') throw new Error(`${path}: line 1: not a journal header`);
  return { sha256, entries: rest.map((line, index) => parseLine(line, path, index + 1)) };
}

function parseLine(line: string, path: string, index: number): unknown {
  try {
    return parseJson(line);
  } catch {
    throw new Error(`${path}: line ${index + 1} is not JSON`);
  }
}
