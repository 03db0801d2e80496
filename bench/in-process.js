/**
 * npm run bench:in-process: what an in-process mock costs a test suite (issue 31, item 5), in
 * this one process on the running Node, as medians over --runs rounds:
 * - the first startMockServer of the process (modules loaded beforehand), and a second one on
 *   the same files, each to its first answers (a listPets and an admin health call);
 * - a reload after a new scenario file, to the first answer that uses it (POST-less: the
 *   library's reload(), then a request with X-Mock-Scenario);
 * - the same reload with a contract that gained a path: the cost a changed contract keeps.
 * Pass --dist <dir> to measure another build's dist/ (an earlier commit, built). Not a test:
 * nothing is asserted. Usage: node bench/in-process.js [--runs 7] [--dist dist]
 */
import console from 'node:console';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { projectRoot } from './lib/paths.js';
import { median } from './lib/rounds.js';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, dist: { type: 'string', default: 'dist' } },
});
const RUNS = Number(options.runs);
const dist = resolve(projectRoot, options.dist);
const { startMockServer } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { fetch } = globalThis;
const AUTH = { Authorization: 'Bearer bench' };
// Away from the project, whose scenarios/ folder a mock started here would read as the user's.
process.chdir(tmpdir());

/** A copy of the packaged contract and a scenarios folder of its own, which a round changes. */
function copyFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-in-process-'));
  cpSync(join(projectRoot, 'openapi.yaml'), join(dir, 'openapi.yaml'));
  mkdirSync(join(dir, 'scenarios'));
  return dir;
}

async function firstAnswers(mock, headers = {}) {
  const list = await fetch(`${mock.url}/pets`, { headers: { ...AUTH, ...headers } });
  await list.arrayBuffer();
  const health = await fetch(`${mock.adminUrl}/health`);
  await health.arrayBuffer();
  return list.status;
}

async function timed(action) {
  const started = performance.now();
  const value = await action();
  return { ms: performance.now() - started, value };
}

const rows = { first: [], second: [], scenario: [], contract: [] };
for (let round = 0; round < RUNS; round += 1) {
  const dir = copyFiles();
  const settings = {
    contract: join(dir, 'openapi.yaml'),
    scenariosDir: join(dir, 'scenarios'),
  };
  const first = await timed(async () => {
    const mock = await startMockServer(settings);
    await firstAnswers(mock);
    return mock;
  });
  const second = await timed(async () => {
    const mock = await startMockServer(settings);
    await firstAnswers(mock);
    return mock;
  });
  await second.value.close();
  const mock = first.value;
  writeFileSync(
    join(dir, 'scenarios', `bench-${round}.yaml`),
    `description: bench\nrules:\n  - operations: listPets\n    status: 401\n`,
  );
  const scenario = await timed(async () => {
    await mock.reload();
    return firstAnswers(mock, { 'X-Mock-Scenario': `bench-${round}` });
  });
  if (scenario.value !== 401) throw new Error(`the new scenario answered ${scenario.value}`);
  const contractPath = join(dir, 'openapi.yaml');
  writeFileSync(contractPath, `${readFileSync(contractPath, 'utf8')}\nx-bench: ${round}\n`);
  const contract = await timed(async () => {
    await mock.reload();
    return firstAnswers(mock);
  });
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
  if (round === 0) continue; // the first round warms the JIT and the file caches
  rows.first.push(first.ms);
  rows.second.push(second.ms);
  rows.scenario.push(scenario.ms);
  rows.contract.push(contract.ms);
}
console.log(`in-process, ${process.version}, dist ${options.dist}, ${RUNS - 1} rounds, median ms:`);
for (const [name, values] of Object.entries(rows)) {
  console.log(
    `  ${name.padEnd(9)} ${median(values).toFixed(1)}  (min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`,
  );
}
