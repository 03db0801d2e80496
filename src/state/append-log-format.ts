import { createHash } from 'node:crypto';
import { hiddenSiblingOf } from '../util/sibling-path.js';
import { isRecord } from '../util/is-record.js';
import { errorMessage } from '../util/error-message.js';
import { parseJson } from '../util/json-codec.js';

// The append log of a store file holds the pets created since the file was last written whole, one
// JSON line each, after a header line naming (by SHA-256) the version of the file they extend.

/** Where the append log of the store file at `path` is: next to it, hidden. */
export function appendLogPathOf(path: string): string {
  return hiddenSiblingOf(path, 'journal');
}

/** The SHA-256 of a file's content, as the append log's header names it. */
export function digestOf(content: readonly Buffer[]): string {
  const hash = createHash('sha256');
  for (const chunk of content) hash.update(chunk);
  return hash.digest('hex');
}

/** The header line of an append log that extends the file whose digest is `digest`. */
export function appendLogHeader(digest: string): string {
  return `${JSON.stringify({ sha256: digest })}\n`;
}

/**
 * The entries of an append log, if it extends the file version whose digest is `digest`; null if it
 * does not (another version, or no complete header: it is then ignored). A last line without its
 * newline is an append cut short by a crash (never acknowledged) and is left out; any other
 * entry that is not JSON is an error, with what to do about it.
 */
export function appendLogEntriesFor(text: string, path: string, digest: string): unknown[] | null {
  const lines = text.split('\n');
  lines.pop(); // the text after the last newline: empty, or an append cut short
  const [header, ...rest] = lines;
  if (header === undefined || !isHeaderOf(header, digest)) return null;
  return rest.map((line, index) => {
    try {
      return parseJson(line);
    } catch (error) {
      throw new Error(
        `${path}: line ${index + 2} is not JSON (${errorMessage(error)}); deleting the append log loses the pets created since the last clean stop`,
      );
    }
  });
}

/** Whether an append log's header line names the file version with this digest. */
function isHeaderOf(header: string, digest: string): boolean {
  try {
    const parsed: unknown = JSON.parse(header);
    return isRecord(parsed) && parsed.sha256 === digest;
  } catch {
    return false;
  }
}
