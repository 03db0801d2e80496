/** Turns the raw results into the floors of issue 22 and a Markdown report. */

/** The systems on Node 24, in the order of the report's columns (see systems.js). */
const NODE24_KEYS = ['a', 'e', 'g', 'c', 'b', 'd', 'f'];
/** The systems also run on Node 20: [Node 24 key, Node 20 key]. */
const NODE20_PAIRS = [
  ['c', 'c20'],
  ['e', 'e20'],
];
/** The ratios of the throughput table: the shipped app (c) over each reference. */
const RATIO_KEYS = ['e', 'g', 'b', 'd', 'f'];

/** 1-minute load average above which the report warns that other work skews the figures. */
const BUSY_LOAD = 1.5;

/**
 * The floors of issue 22, on Node 24, all ratios measured in one run (and issue 10's two data
 * goals, list scaling and --db, which still hold).
 */
const GOALS = {
  overPrismQuiet: 1.5,
  overPrismLogging: 3,
  overValidatedStack: 0.75,
  startupOverPrism: 0.25,
  rssIdleOverPrism: 0.5,
  rssLoadedOverPrism: 1,
  listScaling: 1.25,
  dbOverMemory: 0.5,
};

const C10_WORKLOADS = [
  ['list-c10', 'list c10'],
  ['get-c10', 'get c10'],
  ['create-c10', 'create c10'],
];

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

/** Ratio of two plain figures (MiB, ms), or a reason why there is none. */
function ratio(top, bottom) {
  if (typeof top !== 'number' || typeof bottom !== 'number' || bottom === 0) {
    return { reason: 'not measured' };
  }
  return { value: top / bottom };
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
const mib = (v) => `${v.toFixed(1)} MiB`;
const ms = (v) => `${Math.round(v)} ms`;

/**
 * The same ratio for g, Express + e-o-v alone, beside a goal: where g itself misses the goal, no
 * change to the mock's own steps can meet it within the stack (empty when g was not measured).
 */
function ceiling(outcome) {
  return outcome.value === undefined ? '' : ` (g: ${times(outcome.value)})`;
}

/** list c100 p99 of the shipped app against Prism's (-v error): both measured and valid. */
function p99Outcome(results) {
  const shipped = measurement(results, 'list-c100', 'c');
  const prism = measurement(results, 'list-c100', 'd');
  if (shipped === undefined || prism === undefined) return { outcome: { reason: 'not measured' } };
  if (!valid(shipped) || !valid(prism)) {
    return { outcome: { reason: 'invalid: non-success responses' } };
  }
  return { outcome: { value: shipped.p99 }, bound: prism.p99 };
}

/** Every floor of issue 22 (on Node 24), measured in this run, with pass or FAIL. */
export function evaluateTargets(results) {
  const at = (workload, system) => measurement(results, workload, system);
  const targets = [];
  for (const [workload, label] of C10_WORKLOADS) {
    const goal = GOALS.overPrismQuiet;
    targets.push(
      judged(
        `${label}: shipped / Prism -v error`,
        rpsRatio(at(workload, 'c'), at(workload, 'd')),
        `≥ ${goal}×`,
        (v) => v >= goal,
        times,
      ),
    );
  }
  for (const [workload, label] of C10_WORKLOADS) {
    const goal = GOALS.overPrismLogging;
    targets.push(
      judged(
        `${label}: shipped / Prism default logging`,
        rpsRatio(at(workload, 'c'), at(workload, 'f')),
        `≥ ${goal}×`,
        (v) => v >= goal,
        times,
      ),
    );
  }
  for (const [workload, label] of C10_WORKLOADS) {
    const goal = GOALS.overValidatedStack;
    targets.push(
      judged(
        `${label}: shipped / Express + e-o-v alone`,
        rpsRatio(at(workload, 'c'), at(workload, 'g')),
        `≥ ${goal}×`,
        (v) => v >= goal,
        times,
      ),
    );
  }
  const startupOf = (key) => results.startup[key]?.medianMs;
  const idleOf = (key) => results.rss[key]?.idleMiB;
  const startupGoal = GOALS.startupOverPrism;
  targets.push(
    judged(
      'startup to first 200: shipped / Prism -v error',
      ratio(startupOf('c'), startupOf('d')),
      `≤ ${startupGoal}×${ceiling(ratio(startupOf('g'), startupOf('d')))}`,
      (v) => v <= startupGoal,
      times,
    ),
  );
  targets.push(
    judged(
      'RSS idle: shipped / Prism -v error',
      ratio(idleOf('c'), idleOf('d')),
      `≤ ${GOALS.rssIdleOverPrism}×${ceiling(ratio(idleOf('g'), idleOf('d')))}`,
      (v) => v <= GOALS.rssIdleOverPrism,
      times,
    ),
    judged(
      'RSS after load: shipped / Prism -v error',
      ratio(results.rss.c?.rightAfterLoadMiB, results.rss.d?.rightAfterLoadMiB),
      `≤ ${GOALS.rssLoadedOverPrism}×`,
      (v) => v <= GOALS.rssLoadedOverPrism,
      times,
    ),
  );
  const p99 = p99Outcome(results);
  targets.push(
    judged(
      'list c100 p99: shipped',
      p99.outcome,
      p99.bound === undefined ? '≤ Prism -v error' : `≤ Prism -v error (${ms(p99.bound)})`,
      (v) => p99.bound !== undefined && v <= p99.bound,
      ms,
    ),
  );
  targets.push(
    judged(
      'list limit 20: req/s over 100 pets / over 100k',
      rpsRatio(at('list20-100', 'c'), at('list20-100k', 'c')),
      `≤ ${GOALS.listScaling}×`,
      (v) => v <= GOALS.listScaling,
      times,
    ),
  );
  targets.push(
    judged(
      'creates at 10k pets: --db / in memory',
      rpsRatio(at('create-10k-db', 'c'), at('create-10k-mem', 'c')),
      `≥ ${GOALS.dbOverMemory}×`,
      (v) => v >= GOALS.dbOverMemory,
      times,
    ),
  );
  return targets;
}

/** Requests sent: those answered, whatever their status, and those that got no answer. */
function sent(m) {
  return m.requests + (m.errors ?? 0);
}

function cell(m) {
  if (m === undefined) return '';
  const text = `${Math.round(m.rps).toLocaleString('en-US')} · ${m.p50}/${m.p99} ms`;
  return m.bad === 0 ? text : `${text} ⚠ ${m.bad} of ${sent(m)} failed`;
}

function ratioCell(top, bottom) {
  const outcome = rpsRatio(top, bottom);
  return outcome.value === undefined ? '' : times(outcome.value);
}

/** A Markdown table, its columns padded to their widest cell. */
export function table(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) => `| ${row.map((text, i) => text.padEnd(widths[i])).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A system's column label, e.g. `c shipped`; the key alone if the run did not describe it. */
function column(results, key) {
  return results.systems?.[key]?.column ?? key;
}

function throughputTable(results) {
  const header = [
    'workload',
    ...NODE24_KEYS.map((key) => column(results, key)),
    ...RATIO_KEYS.map((key) => `c/${key}`),
  ];
  const rows = results.workloads.map((workload) => {
    const row = results.measurements[workload.id] ?? {};
    return [
      workload.label,
      ...NODE24_KEYS.map((key) => cell(row[key])),
      ...RATIO_KEYS.map((key) => ratioCell(row.c, row[key])),
    ];
  });
  return table(header, rows);
}

const figure = (v, format) => (typeof v === 'number' ? format(v) : '');

/** The startup, CPU and memory figures of a system; `time`: less is better. */
function processFigures(results) {
  return [
    {
      label: `startup to first 200 (median of ${results.settings.startupRuns})`,
      of: (key) => results.startup[key]?.medianMs,
      format: ms,
      time: true,
    },
    {
      label: 'CPU time to first 200 (median, utime+stime)',
      of: (key) => results.startup[key]?.cpuMedianMs,
      format: ms,
      time: true,
    },
    {
      label: `RSS idle (1 s after the first 200, median of ${results.settings.startupRuns})`,
      of: (key) => results.rss[key]?.idleMiB,
      format: mib,
    },
    {
      label: 'RSS right after its own last list/get/create run',
      of: (key) => results.rss[key]?.rightAfterLoadMiB,
      format: mib,
    },
  ];
}

function processTable(results) {
  const header = ['', ...NODE24_KEYS.map((key) => column(results, key))];
  const rows = processFigures(results).map((f) => [
    f.label,
    ...NODE24_KEYS.map((key) => figure(f.of(key), f.format)),
  ]);
  return table(header, rows);
}

/**
 * c and e on Node 24 and Node 20, each pair with Node 24's gain: req/s on 24 over req/s on 20,
 * and for times, the time on 20 over the time on 24 (so above 1× means Node 24 is better).
 */
function node20Table(results) {
  const header = [''];
  for (const [key24, key20] of NODE20_PAIRS) {
    header.push(`${column(results, key24)} · Node 24`, column(results, key20), 'Node 24 gain');
  }
  const rows = C10_WORKLOADS.map(([workload, label]) => {
    const row = results.measurements[workload] ?? {};
    return [
      label,
      ...NODE20_PAIRS.flatMap(([key24, key20]) => [
        cell(row[key24]),
        cell(row[key20]),
        ratioCell(row[key24], row[key20]),
      ]),
    ];
  });
  for (const f of processFigures(results)) {
    rows.push([
      f.label,
      ...NODE20_PAIRS.flatMap(([key24, key20]) => [
        figure(f.of(key24), f.format),
        figure(f.of(key20), f.format),
        f.time ? figure(ratio(f.of(key20), f.of(key24)).value, times) : '',
      ]),
    ]);
  }
  return table(header, rows);
}

function targetTable(targets) {
  return table(
    ['target', 'measured', 'goal', 'result'],
    targets.map((t) => [t.target, t.measured, t.goal, t.result]),
  );
}

function systemLines(results) {
  return Object.entries(results.systems ?? {}).map(([, system]) => {
    const runtime = system.runtime ? ` (Node ${system.runtime})` : '';
    const name = `**${system.column}**: ${system.label}${runtime}`;
    return system.available ? `- ${name}` : `- ${name}: unavailable (${system.reason})`;
  });
}

/** Other work on the machine skews every figure; say so when the load was already high. */
export function busyWarning(results) {
  const [load] = results.loadAverageAtStart;
  if (load === undefined || load <= BUSY_LOAD) return [];
  return [
    `> ⚠ The machine was busy when the run started (1-minute load ${load}): absolute figures are ` +
      'unreliable; ratios within one workload less so. Re-run on a quiet machine.',
    '',
  ];
}

/** Measurements with non-success responses, which no target judges. */
function failureLines(results) {
  const lines = [];
  for (const workload of results.workloads) {
    for (const [key, m] of Object.entries(results.measurements[workload.id] ?? {})) {
      if (m !== undefined && m.bad > 0) {
        lines.push(
          `- ${workload.label}, ${column(results, key)}: ${m.bad} of ${sent(m)} ` +
            `not a success (statuses ${JSON.stringify(m.statusCounts ?? {})})`,
        );
      }
    }
  }
  return lines.length === 0
    ? []
    : ['Failed requests (their measurements are not judged):', '', ...lines, ''];
}

/** The Markdown report of one run. */
export function renderMarkdown(results) {
  const { settings, runtimes } = results;
  const serverCores = [...new Set(Object.values(results.cores.servers))].join(', ');
  const pinned = results.pinning
    ? `servers on core ${serverCores} (taskset), autocannon in the runner on core ${results.cores.runner}`
    : 'not pinned (no taskset or a single core)';
  const node20 = runtimes.node20 ?? 'unavailable';
  return [
    `# petstore-mock benchmark${results.quick ? ' (quick run: smoke test, not for comparison)' : ''}`,
    '',
    `${results.date} · servers on Node ${runtimes.node24} (c and e also on Node ${node20}) · ` +
      `runner on Node ${runtimes.runner} · ${results.cpu} · ${pinned} · load average at start ` +
      `${results.loadAverageAtStart.join(', ')}. Each measurement: ${settings.seconds} s after a ` +
      `${settings.warmupSeconds} s warm-up, in ${settings.rounds ?? 1} round(s) with the systems ` +
      'interleaved in each; each figure of a cell is its median over the rounds. Cells: req/s · p50/p99 latency ' +
      '(autocannon, whole ms). Compare ratios, not absolute figures.',
    '',
    ...busyWarning(results),
    ...systemLines(results),
    '',
    '## Throughput and latency (Node 24)',
    '',
    throughputTable(results),
    '',
    'list/get/create use the default data (30 fixture pets; list returns 20); "100k pets" runs start ' +
      'with `--seed 1 --count 100000`, "10k pets" with `--seed 1 --count 10000` (and `--db <tmp file>`). ' +
      'Prism serves the paths without `/v1` and returns generated examples. Between the warm-up and the ' +
      'measured run of creates, c and b are reset (POST /__admin/reset) to their start: every ' +
      'measurement starts from the same store.',
    '',
    ...failureLines(results),
    '## Startup, CPU and memory (Node 24)',
    '',
    processTable(results),
    '',
    'Startup: spawn to the first 200 on GET /pets, polled every 5 ms. CPU time: the server ' +
      "process's utime+stime from /proc/<pid>/stat, read right after that 200 (10 ms ticks); it " +
      'depends far less on other work on the machine than the wall time.',
    '',
    '## Node 24 and Node 20 beside it',
    '',
    node20Table(results),
    '',
    '## Floors (issue 22, Node 24)',
    '',
    targetTable(results.targets),
    '',
    'A goal\'s "(g: …)" is the same ratio for g, Express with express-openapi-validator and none ' +
      "of the mock's own steps, reading its document as the app does and run with the app's V8 " +
      'launch flags: the app cannot serve more requests a second, start sooner nor hold less ' +
      'memory idle than g, so where g misses a goal, the stack itself is the cost.',
    '',
  ].join('\n');
}
