/**
 * Part of `npm run build`, after tsc: dist/cli.js becomes one ES module holding the app's own
 * modules, so that a start links a few files of ours instead of some eighty.
 *
 * - Each import() of the CLI stays lazy: the server, the logger, the coverage command and the pet
 *   generator are chunks in dist/cli-chunks/, loaded only when reached.
 * - Packages are not inlined: Node loads them from node_modules as before. Inlined, the
 *   validator's url.parse() would print a deprecation warning meant for application code, and
 *   pino would look for its transport worker beside the bundle.
 * - The library's entry points (index.js, workers.js, playwright.js) stay as tsc wrote them.
 */
import console from 'node:console';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const dist = resolve(import.meta.dirname, '..', 'dist');
const CHUNKS = 'cli-chunks';

/** Every package import stays an import; only relative paths (the app's modules) are inlined. */
const packagesExternal = {
  name: 'packages-external',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path, external: true }));
  },
};

// Its inputs are tsc's dist/cli/: the bin (dist/cli.js) and the container's health probe
// (dist/healthcheck.js) keep the paths users and images already name.
rmSync(join(dist, CHUNKS), { recursive: true, force: true });
await build({
  entryPoints: {
    cli: join(dist, 'cli', 'main.js'),
    healthcheck: join(dist, 'cli', 'healthcheck.js'),
  },
  outdir: dist,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Function names show in traces and logs; inlining must not rename them.
  keepNames: true,
  sourcemap: true,
  plugins: [packagesExternal],
  logLevel: 'warning',
});

const chunks = readdirSync(join(dist, CHUNKS)).filter((name) => name.endsWith('.js'));
const kib =
  [join(dist, 'cli.js'), ...chunks.map((name) => join(dist, CHUNKS, name))].reduce(
    (sum, file) => sum + statSync(file).size,
    0,
  ) / 1024;
console.log(
  `build-cli: dist/cli.js and ${chunks.length} chunks in dist/${CHUNKS}, ${kib.toFixed(0)} KiB`,
);
