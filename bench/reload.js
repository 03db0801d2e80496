/**
 * npm run bench:reload: what a reload costs (issue 24). The built CLI runs on Node 24 (pinned to
 * core 0 where taskset is) over temporary copies of the contract, scenarios and fixtures, and
 * this process measures, as medians:
 * - with --watch, the time from the write of a file to the first answer of the new version: a
 *   new scenario file (asked for with X-Mock-Scenario until it answers), and an edit of the
 *   contract (a 503 documented for listPets, then taken away: Prefer: code=503 tells which);
 * - the same without --watch, each write followed by POST /__admin/reload: the reload alone,
 *   without the watcher's debounce;
 * - the start time (spawn to the first 200) on the packaged files with --watch off and on, and
 *   with --before <dir> that of an earlier build (a checkout of an older commit, built), the
 *   starts interleaved.
 * It writes bench/results/reload.json and prints a table. Not a test: nothing is asserted.
 * Usage: node bench/reload.js [--runs 15] [--starts 9] [--before <dir>]
 */
import console from 'node:console';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { killChildrenOnExit, pinning, spawnNodeServer, stopServer } from './lib/children.js';
import { freePort, waitFor200 } from './lib/http-probe.js';
import { projectRoot, resultsDir } from './lib/paths.js';
import { median } from './lib/rounds.js';
import { resolveNode24 } from './lib/runtimes.js';

const AUTH = { Authorization: 'Bearer bench' };
const START_TIMEOUT_MS = 30_000;
/** How long one change may take to show before the run is called failed (not a target). */
const SHOW_TIMEOUT_MS = 10_000;
/** Between two probes of the new version: the measurement's resolution. */
const PROBE_EVERY_MS = 2;

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    starts: { type: 'string', default: '9' },
    before: { type: 'string' },
  },
});
const RUNS = Number(options.runs);
const STARTS = Number(options.starts);

/** Temporary copies of the packaged files: the contract, the scenarios, the fixtures. */
function copyFiles(dir) {
  const files = {
    contract: join(dir, 'openapi.yaml'),
    scenariosDir: join(dir, 'scenarios'),
    fixtures: join(dir, 'pets.json'),
  };
  copyFileSync(join(projectRoot, 'openapi.yaml'), files.contract);
  copyFileSync(join(projectRoot, 'fixtures', 'pets.json'), files.fixtures);
  mkdirSync(files.scenariosDir);
  const shipped = join(projectRoot, 'scenarios');
  for (const name of readdirSync(shipped)) {
    copyFileSync(join(shipped, name), join(files.scenariosDir, name));
  }
  return files;
}

/** The packaged contract with a 503 documented for listPets. */
function with503(contract) {
  const listPets401 =
    "        '401':\n          $ref: '#/components/responses/Unauthorized'\n    post:";
  if (!contract.includes(listPets401)) throw new Error('listPets has moved in openapi.yaml');
  return contract.replace(
    listPets401,
    "        '503':\n          description: Unavailable.\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Error'\n" +
      listPets401,
  );
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** The status of one request on the kept-alive connection. */
function statusOf(url, headers, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      res.resume();
      res.once('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.once('error', reject);
    req.end();
  });
}

/** Probes until `probe` gives `status`; resolves with the time of that answer. */
async function until(status, probe) {
  const deadline = performance.now() + SHOW_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if ((await probe()) === status) return performance.now();
    await sleep(PROBE_EVERY_MS);
  }
  throw new Error(`the new version did not answer within ${SHOW_TIMEOUT_MS} ms`);
}

/** The flags that serve the copies, and watch them if asked. */
function onCopies(files, watch) {
  return [
    '--contract',
    files.contract,
    '--scenarios-dir',
    files.scenariosDir,
    '--fixtures',
    files.fixtures,
    ...(watch ? ['--watch'] : []),
  ];
}

/**
 * Starts `<root>/dist/cli.js` with `flags`; resolves with the server, its origin and its start
 * time (spawn to the first 200).
 */
async function startMock(node, flags, root = projectRoot) {
  const port = await freePort();
  const args = [
    join(root, 'dist', 'cli.js'),
    '--port',
    String(port),
    '--log-level',
    'silent',
    ...flags,
  ];
  const started = performance.now();
  const server = spawnNodeServer(args, { node });
  const origin = `http://127.0.0.1:${port}`;
  const ready = await waitFor200(`${origin}/v1/pets`, AUTH, server, START_TIMEOUT_MS);
  return { server, origin, startMs: ready - started };
}

/**
 * Write-to-first-answer times, `RUNS` of each: a new scenario file, then an edit of the contract.
 * `apply` runs after each write (POST /__admin/reload without --watch; nothing with it).
 */
async function measureChanges(origin, files, apply) {
  const scenario = [];
  const contract = [];
  const original = readFileSync(files.contract, 'utf8');
  const documented = with503(original);
  const tag = `${process.pid}-${Math.round(performance.now())}`;
  for (let i = 0; i < RUNS; i += 1) {
    const name = `probe-${tag}-${String(i)}`;
    const text = `rules:\n  - operations: listPets\n    status: 200\n    body: [{ id: ${String(i + 1)}, name: probe, categoryId: 1 }]\n`;
    const written = performance.now();
    writeFileSync(join(files.scenariosDir, `${name}.yaml`), text);
    await apply();
    const seen = await until(200, () =>
      statusOf(`${origin}/v1/pets`, { ...AUTH, 'X-Mock-Scenario': name }),
    );
    scenario.push(seen - written);
  }
  for (let i = 0; i < RUNS; i += 1) {
    // Even runs document 503, odd runs take it away again: each is a new version.
    const adds = i % 2 === 0;
    const written = performance.now();
    writeFileSync(files.contract, adds ? documented : original);
    await apply();
    const seen = await until(adds ? 503 : 422, () =>
      statusOf(`${origin}/v1/pets`, { ...AUTH, Prefer: 'code=503' }),
    );
    contract.push(seen - written);
  }
  return { scenario, contract };
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: Math.round(median(sorted)),
    min: Math.round(sorted[0]),
    max: Math.round(sorted.at(-1)),
    runs: sorted.length,
  };
}

function cell({ median: m, min, max, runs }) {
  return `${String(m)} ms (${String(min)}–${String(max)}, n=${String(runs)})`;
}

async function main() {
  killChildrenOnExit();
  const node24 = resolveNode24();
  const at = new Date().toISOString();
  const load = loadavg().map((n) => n.toFixed(2));
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-reload-'));
  try {
    const files = copyFiles(dir);
    const watched = await startMock(node24.path, onCopies(files, true));
    const byWatch = await measureChanges(watched.origin, files, () => Promise.resolve());
    await stopServer(watched.server);

    const askedFiles = copyFiles(mkdtempSync(join(dir, 'post-')));
    const onDemand = await startMock(node24.path, onCopies(askedFiles, false));
    const byPost = await measureChanges(onDemand.origin, askedFiles, async () => {
      const status = await statusOf(`${onDemand.origin}/__admin/reload`, {}, 'POST');
      if (status !== 200) throw new Error(`POST /__admin/reload answered ${String(status)}`);
    });
    await stopServer(onDemand.server);

    // Start times on the packaged files, as `npm start` serves them.
    const kinds = [
      { key: 'watchOff', flags: [] },
      { key: 'watchOn', flags: ['--watch'] },
      ...(options.before === undefined ? [] : [{ key: 'before', flags: [], root: options.before }]),
    ];
    const starts = Object.fromEntries(kinds.map(({ key }) => [key, []]));
    for (let i = 0; i < STARTS; i += 1) {
      for (const { key, flags, root } of kinds) {
        const started = await startMock(node24.path, flags, root);
        starts[key].push(started.startMs);
        await stopServer(started.server);
      }
    }

    const results = {
      at,
      node: node24.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      pinned: pinning,
      loadAverage: load,
      watch: { scenario: summary(byWatch.scenario), contract: summary(byWatch.contract) },
      post: { scenario: summary(byPost.scenario), contract: summary(byPost.contract) },
      start: Object.fromEntries(kinds.map(({ key }) => [key, summary(starts[key])])),
      before: options.before ?? null,
      raw: { watch: byWatch, post: byPost, starts },
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'reload.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(
      `reload cost · ${at} · server on Node ${node24.version}${pinning ? ' (core 0)' : ''} · load average ${load.join(', ')}`,
    );
    console.log('');
    console.log(
      '| from the write of … to the first answer on the new version | median (min–max) |',
    );
    console.log('| --- | --- |');
    console.log(`| a new scenario file, --watch | ${cell(results.watch.scenario)} |`);
    console.log(`| the contract, --watch | ${cell(results.watch.contract)} |`);
    console.log(`| a new scenario file, POST /__admin/reload | ${cell(results.post.scenario)} |`);
    console.log(`| the contract, POST /__admin/reload | ${cell(results.post.contract)} |`);
    console.log('');
    console.log('| start on the packaged files (spawn to the first 200) | median (min–max) |');
    console.log('| --- | --- |');
    console.log(`| --watch off | ${cell(results.start.watchOff)} |`);
    console.log(`| --watch on | ${cell(results.start.watchOn)} |`);
    if (results.start.before) {
      console.log(`| ${options.before ?? ''}, no --watch | ${cell(results.start.before)} |`);
    }
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
