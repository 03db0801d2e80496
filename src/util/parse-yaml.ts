import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Yaml from 'yaml';
import { isRecord } from './is-record.js';
import { packageRoot } from './paths.js';

/**
 * JSON snapshots of the YAML files shipped with the package (contracts, scenarios), written by
 * `npm run build` (scripts/cache-yaml.js), each named by the sha256 of the YAML text it stands for.
 */
export const YAML_CACHE_DIR = join(packageRoot, 'dist', 'yaml-cache');

/** The file name of the snapshot of a YAML text. */
export function yamlCacheName(text: string): string {
  return `${createHash('sha256').update(text).digest('hex')}.json`;
}

function isYamlModule(value: unknown): value is typeof Yaml {
  return isRecord(value) && typeof value.parse === 'function';
}

let yaml: typeof Yaml | undefined;

/** The yaml package, loaded on the first text without a snapshot. */
function yamlModule(): typeof Yaml {
  if (!yaml) {
    const loaded: unknown = createRequire(import.meta.url)('yaml');
    if (!isYamlModule(loaded)) throw new Error('the yaml package did not load');
    yaml = loaded;
  }
  return yaml;
}

function snapshotOf(text: string): string | undefined {
  try {
    return readFileSync(join(YAML_CACHE_DIR, yamlCacheName(text)), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Parses a YAML text. The shipped files have a snapshot of the exact same text, read as JSON
 * (start-up then loads no YAML parser); any other text, an edited one included, is parsed by
 * the yaml package, whose errors are thrown as they are.
 */
export function parseYaml(text: string): unknown {
  const snapshot = snapshotOf(text);
  return snapshot === undefined ? yamlModule().parse(text) : JSON.parse(snapshot);
}
