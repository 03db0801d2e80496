/**
 * node bench/launcher.js [--runs 5]: what the bin's launcher costs (issue 31). The bin sets its
 * V8 flags itself (src/cli/launch-flags.ts): on Node 24 it replaces its own process with them
 * (execve), on Node 20 it runs the mock as a second, supervised process. Each runtime starts
 * `dist/cli.js` as shipped and with the flags already on node's command line (no relaunch), the
 * four interleaved, `runs` times each: the median start (spawn to the first 200 on /v1/pets), the
 * CPU time to it (what a loaded machine changes least) and the RSS, idle 1 s after that answer,
 * each summed over every process of the bin. Not a test: nothing is asserted.
 */
import console from 'node:console';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { killChildrenOnExit, rssMiB, stopServer } from './lib/children.js';
import { median } from './lib/rounds.js';
import { ensureBuilt } from './lib/runner.js';
import { resolveNode20, resolveNode24 } from './lib/runtimes.js';
import { startSystem } from './lib/systems.js';

const IDLE_SETTLE_MS = 1000;

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(options.runs);

const node20 = resolveNode20();
if (node20.unavailable) throw new Error(node20.unavailable);
ensureBuilt();
const { LAUNCH_FLAGS } = await import('../dist/cli/launch-flags.js');
const flags = LAUNCH_FLAGS.map(({ flag }) => flag);

const runtimes = [
  { name: 'Node 24', ...resolveNode24() },
  { name: 'Node 20', ...node20 },
];
const variants = runtimes.flatMap(({ name, path, version }) => [
  { key: `${name} · bin as shipped`, version, node: path, given: [] },
  { key: `${name} · flags given, no relaunch`, version, node: path, given: flags },
]);
const systems = variants.map((variant) => ({
  ...variant,
  basePath: '/v1',
  args: (port) => [
    ...variant.given,
    'dist/cli.js',
    '--port',
    String(port),
    '--log-level',
    'silent',
  ],
}));

killChildrenOnExit();
const figures = new Map(systems.map(({ key }) => [key, { startMs: [], cpuMs: [], rss: [] }]));
for (let run = 0; run < RUNS; run += 1) {
  for (const system of systems) {
    const running = await startSystem(system);
    await sleep(IDLE_SETTLE_MS);
    const figure = figures.get(system.key);
    figure.startMs.push(running.startupMs);
    figure.cpuMs.push(running.startupCpuMs);
    figure.rss.push(rssMiB(running.pid));
    await stopServer(running.server);
  }
}

console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, ${RUNS} runs each, medians`,
);
console.log('| runtime · start | start (ms) | CPU to start (ms) | idle RSS (MiB) |');
console.log('|---|---:|---:|---:|');
for (const system of systems) {
  const { startMs, cpuMs, rss } = figures.get(system.key);
  console.log(
    `| ${system.key} (${system.version}) | ${Math.round(median(startMs))} | ${Math.round(median(cpuMs))} | ${median(rss).toFixed(0)} |`,
  );
}
process.exit(0);
