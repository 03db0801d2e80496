/** Turns the raw results into the targets of issue 5 and a Markdown report. */

const SYSTEM_KEYS = ['a', 'b', 'c', 'd'];

/** 1-minute load average above which the report warns that other work skews the figures. */
const BUSY_LOAD = 1.5;

/** Figures from issue 5 that are not measured here. */
const WIREMOCK = { get: 5200, create: 5000 };

function measurement(results, workloadId, systemKey) {
  return results.measurements[workloadId]?.[systemKey];
}

/** A measurement that can be trusted: present and free of non-success responses. */
function valid(m) {
  return m !== undefined && m.bad === 0;
}

/** Ratio of two measurements' req/s, or a reason why there is none. */
function rpsRatio(top, bottom) {
  if (top === undefined || bottom === undefined) return { reason: 'not measured' };
  if (!valid(top) || !valid(bottom)) return { reason: 'invalid: non-success responses' };
  return { value: top.rps / bottom.rps };
}

function judged(target, outcome, goal, passes, format) {
  if (outcome.value === undefined) {
    return { target, measured: '–', goal, result: `n/a (${outcome.reason})` };
  }
  return {
    target,
    measured: format(outcome.value),
    value: outcome.value,
    goal,
    result: passes(outcome.value) ? 'pass' : 'FAIL',
  };
}

const times = (v) => `${v.toFixed(2)}×`;
const perSecond = (v) => `${Math.round(v).toLocaleString('en-US')} req/s`;
const mib = (v) => `${v.toFixed(1)} MiB`;
const ms = (v) => `${Math.round(v)} ms`;

function rpsOf(m) {
  if (m === undefined) return { reason: 'not measured' };
  return valid(m) ? { value: m.rps } : { reason: 'invalid: non-success responses' };
}

function presentValue(value) {
  return typeof value === 'number' ? { value } : { reason: 'not measured' };
}

/** Every target of issue 5, measured in this run, with pass or FAIL. */
export function evaluateTargets(results) {
  const at = (workload, system) => measurement(results, workload, system);
  const targets = [];
  for (const [workload, label] of [
    ['list-c10', 'list c10'],
    ['get-c10', 'get c10'],
    ['create-c10', 'create c10'],
  ]) {
    const outcome = rpsRatio(at(workload, 'c'), at(workload, 'd'));
    targets.push(judged(`${label}: shipped / Prism`, outcome, '≥ 1.5×', (v) => v >= 1.5, times));
  }
  for (const [workload, label, figure] of [
    ['get-c10', 'get c10', WIREMOCK.get],
    ['create-c10', 'create c10', WIREMOCK.create],
  ]) {
    const goal = `≥ ${perSecond(figure)} (WireMock)`;
    targets.push(
      judged(`${label}: shipped`, rpsOf(at(workload, 'c')), goal, (v) => v >= figure, perSecond),
    );
  }
  for (const [workload, label] of [
    ['list-c10', 'list c10'],
    ['get-c10', 'get c10'],
    ['create-c10', 'create c10'],
  ]) {
    const outcome = rpsRatio(at(workload, 'c'), at(workload, 'b'));
    targets.push(
      judged(`${label}: shipped / validation off`, outcome, '≥ 0.8×', (v) => v >= 0.8, times),
    );
  }
  const startup = presentValue(results.startup.c?.medianMs);
  targets.push(judged('startup to first 200: shipped', startup, '≤ 350 ms', (v) => v <= 350, ms));
  const idle = presentValue(results.rss.c?.idleMiB);
  targets.push(judged('RSS idle: shipped', idle, '≤ 80 MiB', (v) => v <= 80, mib));
  const loaded = presentValue(results.rss.c?.afterLoadMiB);
  targets.push(judged('RSS after load: shipped', loaded, '≤ 150 MiB', (v) => v <= 150, mib));
  const c100 = at('list-c100', 'c');
  const p99 =
    c100 === undefined
      ? { reason: 'not measured' }
      : valid(c100)
        ? { value: c100.p99 }
        : { reason: 'invalid' };
  targets.push(judged('list c100 p99: shipped', p99, '≤ 40 ms', (v) => v <= 40, ms));
  const scaling = rpsRatio(at('list20-100', 'c'), at('list20-100k', 'c'));
  targets.push(
    judged(
      'list limit 20: req/s over 100 pets / over 100k',
      scaling,
      '≤ 1.25×',
      (v) => v <= 1.25,
      times,
    ),
  );
  const db = rpsRatio(at('create-10k-db', 'c'), at('create-10k-mem', 'c'));
  targets.push(
    judged('creates at 10k pets: --db / in memory', db, '≥ 0.5×', (v) => v >= 0.5, times),
  );
  return targets;
}

function cell(m) {
  if (m === undefined) return '';
  const text = `${Math.round(m.rps).toLocaleString('en-US')} · ${m.p50}/${m.p99} ms`;
  return m.bad === 0 ? text : `${text} ⚠ ${m.bad} of ${m.requests + m.bad} failed`;
}

function ratioCell(top, bottom) {
  const ratio = rpsRatio(top, bottom);
  return ratio.value === undefined ? '' : times(ratio.value);
}

function table(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) => `| ${row.map((text, i) => text.padEnd(widths[i])).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

function throughputTable(results) {
  const header = ['workload', ...SYSTEM_KEYS, 'c/a', 'c/b', 'c/d'];
  const rows = results.workloads.map((workload) => {
    const row = results.measurements[workload.id] ?? {};
    return [
      workload.label,
      ...SYSTEM_KEYS.map((key) => cell(row[key])),
      ratioCell(row.c, row.a),
      ratioCell(row.c, row.b),
      ratioCell(row.c, row.d),
    ];
  });
  return table(header, rows);
}

function processTable(results) {
  const header = ['', ...SYSTEM_KEYS];
  const value = (v, format) => (typeof v === 'number' ? format(v) : '');
  const rows = [
    [
      `startup to first 200 (median of ${results.settings.startupRuns})`,
      ...SYSTEM_KEYS.map((key) => value(results.startup[key]?.medianMs, ms)),
    ],
    ['RSS idle (after start)', ...SYSTEM_KEYS.map((key) => value(results.rss[key]?.idleMiB, mib))],
    [
      'RSS after the list/get/create workloads',
      ...SYSTEM_KEYS.map((key) => value(results.rss[key]?.afterLoadMiB, mib)),
    ],
  ];
  return table(header, rows);
}

function targetTable(targets) {
  return table(
    ['target', 'measured', 'goal', 'result'],
    targets.map((t) => [t.target, t.measured, t.goal, t.result]),
  );
}

function systemLines(results) {
  return SYSTEM_KEYS.map((key) => {
    const system = results.systems[key];
    if (system === undefined) return undefined;
    return system.available
      ? `- **${key}**: ${system.label}`
      : `- **${key}**: ${system.label}: unavailable (${system.reason})`;
  }).filter((line) => line !== undefined);
}

/** Other work on the machine skews every figure; say so when the load was already high. */
function busyWarning(results) {
  const [load] = results.loadAverageAtStart;
  if (load === undefined || load <= BUSY_LOAD) return [];
  return [
    `> ⚠ The machine was busy when the run started (1-minute load ${load}): absolute figures are ` +
      'unreliable; ratios within one workload less so. Re-run on a quiet machine.',
    '',
  ];
}

/** The Markdown report of one run. */
export function renderMarkdown(results) {
  const { settings } = results;
  const serverCores = [...new Set(Object.values(results.cores.servers))].join(', ');
  const pinned = results.pinning
    ? `servers on core ${serverCores} (taskset), autocannon in the runner on core ${results.cores.runner}`
    : 'not pinned (no taskset or a single core)';
  return [
    `# petstore-mock benchmark${results.quick ? ' (quick run: smoke test, not for comparison)' : ''}`,
    '',
    `${results.date} · Node ${results.node} · ${results.cpu} · ${pinned} · load average at ` +
      `start ${results.loadAverageAtStart.join(', ')}. Each measurement: ` +
      `${settings.seconds} s after a ${settings.warmupSeconds} s warm-up; workloads interleaved ` +
      'across systems. Cells: req/s · p50/p99 latency (autocannon, whole ms).',
    '',
    ...busyWarning(results),
    ...systemLines(results),
    '',
    '## Throughput and latency',
    '',
    throughputTable(results),
    '',
    'list/get/create use the default data (30 fixture pets; list returns 20); "100k pets" runs start ' +
      'with `--seed 1 --count 100000`, "10k pets" with `--seed 1 --count 10000` (and `--db <tmp file>`). ' +
      'Prism serves the paths without `/v1` and returns generated examples.',
    '',
    '## Startup and memory',
    '',
    processTable(results),
    '',
    '## Targets (issue 5)',
    '',
    targetTable(results.targets),
    '',
  ].join('\n');
}
