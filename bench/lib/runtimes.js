/**
 * The Node binaries the servers run on: Node 24, the runtime the project recommends and ships
 * (scripts/node24.sh, installed on demand), and the machine's Node 20 beside it.
 */
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { projectRoot } from './paths.js';

const NODE24_SCRIPT = join(projectRoot, 'scripts', 'node24.sh');
/** node24.sh may download and unpack Node first. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const VERSION_TIMEOUT_MS = 10_000;

/** `node --version` of a binary, or null when it does not run. */
function versionOf(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** Node 24 from scripts/node24.sh: `{ path, version }`; throws with node24.sh's reason. */
export function resolveNode24() {
  const result = spawnSync('bash', [NODE24_SCRIPT], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
  });
  const path = result.stdout?.trim().split('\n').at(-1) ?? '';
  const version = result.status === 0 && path !== '' ? versionOf(path) : null;
  if (version === null) {
    const why = result.error?.message ?? result.stderr?.trim().split('\n').at(-1) ?? 'no output';
    throw new Error(`no Node 24 from scripts/node24.sh: ${why}`);
  }
  return { path, version };
}

/**
 * The machine's Node 20: BENCH_NODE20 if set, else this process's node or the first `node` on
 * PATH that is a v20. `{ path, version }`, or `{ unavailable }` with the reason.
 */
export function resolveNode20() {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'node'));
  const candidates = process.env.BENCH_NODE20
    ? [process.env.BENCH_NODE20]
    : [process.execPath, ...onPath];
  for (const path of candidates) {
    const version = versionOf(path);
    if (version?.startsWith('v20.')) return { path, version };
  }
  return {
    unavailable: `no Node 20 (tried ${candidates.slice(0, 3).join(', ')}; set BENCH_NODE20)`,
  };
}
