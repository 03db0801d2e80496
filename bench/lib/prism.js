/** Prism, the peer to beat: installed on demand with npm into a cache folder (see paths.js). */
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PRISM_VERSION, prismDir } from './paths.js';

const INSTALL_TIMEOUT_MS = 5 * 60_000;

export const prismEntry = join(
  prismDir,
  'node_modules',
  '@stoplight',
  'prism-cli',
  'dist',
  'index.js',
);

/**
 * Resolves with Prism's entry script, or with the reason it is unavailable. With `install` false
 * (quick runs) an absent Prism is not installed.
 */
export function preparePrism({ install }) {
  if (existsSync(prismEntry)) return { entry: prismEntry };
  if (!install) return { unavailable: `not installed in ${prismDir} (quick run: not installing)` };
  console.log(`bench: installing @stoplight/prism-cli@${PRISM_VERSION} into ${prismDir}`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prismDir,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ],
    { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS },
  );
  if (npm.status === 0 && existsSync(prismEntry)) return { entry: prismEntry };
  const why = npm.error?.message ?? npm.stderr.trim().split('\n').slice(-1)[0] ?? 'unknown';
  return { unavailable: `npm install failed: ${why}` };
}
