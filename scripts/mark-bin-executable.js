/**
 * Part of `npm run build`, last: gives each file of package.json's `bin` its run bits. tsc writes
 * dist/cli.js as a plain file (0644); npm sets the bits only when it installs or links the package,
 * so without this a rebuild leaves `npx petstore-mock` in the clone with `Permission denied`.
 */
import console from 'node:console';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const files = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
for (const file of files) {
  const path = join(root, file);
  // The read bits that are set get their run bit beside them (0644 becomes 0755).
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, mode | ((mode & 0o444) >> 2));
}
console.log(`mark-bin-executable: ${files.join(', ')}`);
