import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

/** The project root: bench/ sits directly below it. */
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Where the latest results are written (one run only: each run overwrites them). */
export const resultsDir = join(projectRoot, 'bench', 'results');

export const PRISM_VERSION = '5.14.2';

/**
 * Prism is installed on demand into a cache folder outside the repository, so the clone stays
 * clean and no ignore entry is needed; BENCH_PRISM_DIR overrides it.
 */
export const prismDir =
  process.env.BENCH_PRISM_DIR ??
  join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'petstore-mock-bench',
    `prism-${PRISM_VERSION}`,
  );
