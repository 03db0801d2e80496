/**
 * Part of `npm run build`, after tsc: the CommonJS side of the package, for `require('petstore-mock')`.
 *
 * - dist/<entry>.cjs: each entry point bundled by esbuild from tsc's ESM output, with the ESM-only
 *   dependencies (lowdb, faker) inlined, because jest's CommonJS runtime can neither require an ES
 *   module nor run import(); the other dependencies stay ordinary require() calls, and import()
 *   becomes a lazy require(), so loading stays as lazy as in the ESM build.
 * - dist/cjs/: the declarations again, in a `"type": "commonjs"` folder, so TypeScript reads them as
 *   describing CommonJS modules: the same types for `require` as for `import`.
 */
import console from 'node:console';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const dist = resolve(import.meta.dirname, '..', 'dist');
/** The package's entry points (package.json `exports`), by their file in dist/. */
const ENTRIES = ['index', 'workers', 'playwright'];
/** ES-module-only dependencies: inlined. Every other package stays a require(). */
const INLINED = /^(lowdb|@faker-js\/faker)(\/|$)/;
const entryFiles = new Map(ENTRIES.map((name) => [join(dist, `${name}.js`), name]));

/** Decides, for each import, whether it is bundled or left to require() at run time. */
const externals = {
  name: 'externals',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^import-meta-url$/ }, () => ({ path: 'shim', namespace: 'shim' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({
      // tsc's output finds the package's files from import.meta.url; this is the bundle's own URL,
      // and the bundle sits in dist/ as the ESM entry it replaces, so the same paths come out.
      contents: "export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      loader: 'js',
    }));
    esbuild.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('node:') || INLINED.test(path) ? undefined : { path, external: true },
    );
    // Another entry point is required, not copied in: one instance of each module.
    esbuild.onResolve({ filter: /^\./ }, ({ path, resolveDir, kind }) => {
      const name = entryFiles.get(resolve(resolveDir, path));
      return kind === 'entry-point' || name === undefined
        ? undefined
        : { path: `./${name}.cjs`, external: true };
    });
  },
};

for (const name of ENTRIES) {
  await build({
    entryPoints: [join(dist, `${name}.js`)],
    outfile: join(dist, `${name}.cjs`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.19',
    supported: { 'dynamic-import': false },
    inject: ['import-meta-url'],
    define: { 'import.meta.url': 'importMetaUrl' },
    plugins: [externals],
    logLevel: 'warning',
  });
}

const cjsTypes = join(dist, 'cjs');
rmSync(cjsTypes, { recursive: true, force: true });
const declarations = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.d.ts'),
);
for (const file of declarations) {
  mkdirSync(dirname(join(cjsTypes, file)), { recursive: true });
  cpSync(join(dist, file), join(cjsTypes, file));
}
writeFileSync(join(cjsTypes, 'package.json'), '{ "type": "commonjs" }\n');

const sizes = ENTRIES.map(
  (name) => `${name}.cjs ${(statSync(join(dist, `${name}.cjs`)).size / 1024).toFixed(0)} KiB`,
);
console.log(`build-cjs: ${sizes.join(', ')}; ${declarations.length} declarations in dist/cjs`);
