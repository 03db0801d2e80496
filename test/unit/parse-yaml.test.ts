import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  adminContractPath,
  defaultContractPath,
  defaultScenariosDir,
} from '../../src/util/paths.js';
import { parseYaml, YAML_CACHE_DIR, yamlCacheName } from '../../src/util/parse-yaml.js';

const shipped = [
  defaultContractPath,
  adminContractPath,
  ...readdirSync(defaultScenariosDir).map((name) => join(defaultScenariosDir, name)),
];

describe('parseYaml', () => {
  // npm test builds before jest, so the build's snapshots are there.
  it.each(shipped)('has a snapshot of %s from the build, equal to its YAML value', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(existsSync(join(YAML_CACHE_DIR, yamlCacheName(text)))).toBe(true);
    expect(parseYaml(text)).toEqual(parse(text));
  });

  it('parses an edited text as YAML: a snapshot only stands for the exact text', () => {
    const text = `${readFileSync(defaultContractPath, 'utf8')}\n# edited\n`;
    expect(existsSync(join(YAML_CACHE_DIR, yamlCacheName(text)))).toBe(false);
    expect(parseYaml(text)).toEqual(parse(text));
  });

  it('throws the YAML error of a text that is not YAML', () => {
    expect(() => parseYaml('a: [1, 2')).toThrow(/flow sequence|Missing|end/i);
  });
});
