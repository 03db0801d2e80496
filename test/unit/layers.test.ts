import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The folders of src/ are its layers, lowest first: a module may import its own folder and the
// folders below it, never one above (STYLE.md: layers that only call downwards). The package's
// entry points (index, workers, playwright, the cli bin and the image's healthcheck) sit at the top
// of src/, above every folder.
const LAYERS: readonly string[] = [
  'util',
  // Just above util: every layer takes its settings from the Config by type (Pick<Config, …>).
  'config',
  'contract',
  'state',
  'http',
  'proxy',
  'api',
  'server',
  'cli',
  '.',
];

const SRC = join(import.meta.dirname, '..', '..', 'src');

function layerOf(folder: string): number {
  const index = LAYERS.indexOf(folder);
  if (index < 0) throw new Error(`src/${folder} is in no layer: add it to LAYERS`);
  return index;
}

function folderOf(file: string): string {
  const [first = '.', ...rest] = relative(SRC, file).split('/');
  return rest.length === 0 ? '.' : first;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const IMPORT = /^(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm;

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? '');
}

describe('layers: no folder of src/ imports a folder above it', () => {
  const files = sourceFiles(SRC);

  it.each(files.map((file) => [relative(SRC, file), file]))('%s', (_name, file) => {
    const own = layerOf(folderOf(file));
    const upward = importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => layerOf(folderOf(target)) > own)
      .map((target) => relative(SRC, target));
    expect(upward).toEqual([]);
  });

  it("imports nothing from a dependency's private dist/ path", () => {
    // Ajv has no exports map: its README names `ajv/dist/2020` as the way to its 2020-12 draft.
    const documented = new Set(['ajv/dist/2020.js']);
    const privatePaths = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => !spec.startsWith('.') && spec.includes('/dist/') && !documented.has(spec))
        .map((spec) => `${relative(SRC, file)}: ${spec}`),
    );
    expect(privatePaths).toEqual([]);
  });
});
