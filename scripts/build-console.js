/**
 * Part of `npm run build`: the QA console (console/) into dist/console, served at /__admin/ui.
 * Its TypeScript is bundled by esbuild into one minified script for current browsers; the page
 * and its style are copied as they are. Nothing is fetched at run time.
 */
import console from 'node:console';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const source = join(root, 'console');
const out = join(root, 'dist', 'console');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(source, 'src', 'main.ts')],
  outfile: join(out, 'console.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox121', 'safari17'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css']) copyFileSync(join(source, file), join(out, file));

const sizes = ['console.js', 'console.css', 'index.html'].map(
  (file) => `${file} ${(statSync(join(out, file)).size / 1024).toFixed(1)} KiB`,
);
console.log(`build-console: ${sizes.join(', ')}`);
