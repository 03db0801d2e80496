import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir; remove it with `removeTmpDir`. */
export function makeTmpDir(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-mock-test-'));
}

/** Removes a directory made by `makeTmpDir`, and everything in it. */
export function removeTmpDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes `content` (a string as is, anything else as JSON) to `name` in `dir`; returns the path. */
export function writeTmpFile(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The parsed content of a JSON file, for assertions. */
export function readJsonFile(path: string): unknown {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return parsed;
}
