/**
 * What every load bench does before it measures: dist/ built from the current code, and the
 * runner itself on Node 24, pinned to the runner's core, so that the load generator runs on the
 * servers' runtime and never shares their core.
 */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { RUNNER_CORE, pinning } from './children.js';
import { projectRoot } from './paths.js';

/** Set in the runner's own process: the Node binaries as JSON (see rerunOnNode24). */
export const RUNTIMES_VARIABLE = 'BENCH_RUNNER_RUNTIMES';

/**
 * Runs `script` again on Node 24, under `taskset -c 1` when pinning, with this process's
 * arguments. The runtimes found here are handed down; signals are passed on; the pinned run stops
 * its servers itself.
 */
export function rerunOnNode24(script, runtimes) {
  const node = runtimes.node24.path;
  const [command, ...args] = pinning
    ? ['taskset', '-c', String(RUNNER_CORE), node, script, ...process.argv.slice(2)]
    : [node, script, ...process.argv.slice(2)];
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, [RUNTIMES_VARIABLE]: JSON.stringify(runtimes) },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 130 : 1));
  });
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** What dist/ is built from: the code, and the YAML whose snapshots start-up reads. */
const BUILD_INPUTS = ['src', 'scenarios', 'openapi.yaml', 'admin-openapi.yaml'];

function newestInput() {
  return Math.max(
    ...BUILD_INPUTS.map((input) => {
      const path = join(projectRoot, input);
      return statSync(path).isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    }),
  );
}

/**
 * Builds dist/ when it is missing or older than its inputs, so the numbers are those of the code
 * (a stale YAML snapshot would not fail, it would only slow start-up down).
 */
export function ensureBuilt() {
  const cli = join(projectRoot, 'dist', 'cli.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestInput()) return;
  console.log('bench: dist/ is missing or older than src/ or the YAML: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

function fail(error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

/**
 * A bench's entry: in the process npm starts, `prepare()` (checks, build, then rerunOnNode24);
 * in the runner it starts, `main(runtimes)` with the runtimes handed down.
 */
export function runBench(prepare, main) {
  const handedDown = process.env[RUNTIMES_VARIABLE];
  if (handedDown !== undefined) {
    main(JSON.parse(handedDown)).catch(fail);
    return;
  }
  try {
    prepare();
  } catch (error) {
    fail(error);
  }
}
