/**
 * npm run bench: the suite (run.js), then large public contracts beside Prism (contract.js), then
 * one replica on Redis against in memory (redis.js), one after the other so that they never load
 * the machine together. --quick goes to all three; --no-prism to run.js and contract.js, the ones
 * with Prism. Stops at the first that fails.
 * Usage: node bench/all.js [--quick] [--no-prism]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { projectRoot } from './lib/paths.js';

const args = process.argv.slice(2);
const benches = [
  ['run.js', args],
  ['contract.js', args],
  ['redis.js', args.filter((arg) => arg !== '--no-prism')],
];
for (const [script, scriptArgs] of benches) {
  const path = join(projectRoot, 'bench', script);
  const { status } = spawnSync(process.execPath, [path, ...scriptArgs], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
