/**
 * Part of `npm run build`, after tsc: writes a JSON snapshot of each YAML file the package ships
 * (the two contracts and scenarios/*.yaml) into dist/yaml-cache, named by the sha256 of its text,
 * so that start-up reads JSON instead of loading a YAML parser. A file whose value does not
 * survive JSON unchanged gets no snapshot (it is then parsed as YAML at start).
 */
import console from 'node:console';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { adminContractPath, defaultContractPath, defaultScenariosDir } from '../dist/util/paths.js';
import { YAML_CACHE_DIR, yamlCacheName } from '../dist/util/parse-yaml.js';

const files = [
  defaultContractPath,
  adminContractPath,
  ...readdirSync(defaultScenariosDir)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(defaultScenariosDir, name)),
];

rmSync(YAML_CACHE_DIR, { recursive: true, force: true });
mkdirSync(YAML_CACHE_DIR, { recursive: true });
let written = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const value = parse(text);
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
    console.warn(`cache-yaml: ${file} does not survive JSON; it will be parsed as YAML`);
    continue;
  }
  writeFileSync(join(YAML_CACHE_DIR, yamlCacheName(text)), json);
  written += 1;
}
console.log(
  `cache-yaml: ${written} of ${files.length} YAML files snapshotted in ${YAML_CACHE_DIR}`,
);
