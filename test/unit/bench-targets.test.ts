import { combineRounds, type Round } from '../../bench/lib/rounds.js';
import {
  evaluateTargets,
  renderMarkdown,
  type BenchResults,
  type BenchRun,
  type Measurement,
} from '../../bench/lib/report.js';

const at = (rps: number, p99 = 5, bad = 0): Measurement => ({
  rps,
  p50: 1,
  p99,
  bad,
  requests: 1000,
});

/**
 * A run exactly at every floor of issue 22 (c shipped, d Prism -v error, f Prism default logging,
 * g Express + express-openapi-validator alone): every target must pass.
 */
function atTheGoals(): BenchResults {
  return {
    measurements: {
      'list-c10': { c: at(3000), d: at(2000), f: at(1000), g: at(4000) },
      'get-c10': { c: at(3000), d: at(2000), f: at(1000), g: at(4000) },
      'create-c10': { c: at(1500), d: at(1000), f: at(500), g: at(2000) },
      'list-c100': { c: at(3000, 40), d: at(1000, 40) },
      'list20-100': { c: at(1250) },
      'list20-100k': { c: at(1000) },
      'create-10k-mem': { c: at(2000) },
      'create-10k-db': { c: at(1000) },
    },
    startup: { c: { medianMs: 300 }, d: { medianMs: 1200 } },
    rss: {
      c: { idleMiB: 50, rightAfterLoadMiB: 100 },
      d: { idleMiB: 100, rightAfterLoadMiB: 100 },
    },
  };
}

const resultOf = (results: BenchResults, target: string): string | undefined =>
  evaluateTargets(results).find((t) => t.target === target)?.result;

type Change = (r: BenchResults) => void;
const unchanged: Change = () => undefined;
/** Replaces one system's measurement of one workload. */
const measured =
  (workload: string, key: string, m: Measurement): Change =>
  (r) => {
    r.measurements[workload] = { ...r.measurements[workload], [key]: m };
  };

/** Each target: how to put a run at its goal (from atTheGoals), and how to put it just past. */
const BOUNDS: [string, Change, Change][] = [
  ['list c10: shipped / Prism -v error', unchanged, measured('list-c10', 'c', at(2999))],
  ['get c10: shipped / Prism -v error', unchanged, measured('get-c10', 'd', at(2001))],
  ['create c10: shipped / Prism -v error', unchanged, measured('create-c10', 'd', at(1001))],
  ['list c10: shipped / Prism default logging', unchanged, measured('list-c10', 'f', at(1001))],
  ['get c10: shipped / Prism default logging', unchanged, measured('get-c10', 'f', at(1001))],
  ['create c10: shipped / Prism default logging', unchanged, measured('create-c10', 'f', at(501))],
  ['list c10: shipped / Express + e-o-v alone', unchanged, measured('list-c10', 'g', at(4001))],
  ['get c10: shipped / Express + e-o-v alone', unchanged, measured('get-c10', 'c', at(2999))],
  ['create c10: shipped / Express + e-o-v alone', unchanged, measured('create-c10', 'g', at(2001))],
  [
    'startup to first 200: shipped / Prism -v error',
    unchanged,
    (r) => (r.startup.c = { medianMs: 301 }),
  ],
  [
    'RSS idle: shipped / Prism -v error',
    unchanged,
    (r) => (r.rss.c = { idleMiB: 50.1, rightAfterLoadMiB: 100 }),
  ],
  [
    'RSS after load: shipped / Prism -v error',
    unchanged,
    (r) => (r.rss.c = { idleMiB: 50, rightAfterLoadMiB: 100.1 }),
  ],
  ['list c100 p99: shipped', unchanged, measured('list-c100', 'c', at(3000, 41))],
  [
    'list limit 20: req/s over 100 pets / over 100k',
    unchanged,
    measured('list20-100', 'c', at(1251)),
  ],
  ['creates at 10k pets: --db / in memory', unchanged, measured('create-10k-db', 'c', at(999))],
];

describe('the bench judges the floors of issue 22', () => {
  it('passes all 15 targets of a run exactly at the goals (the bounds are inclusive)', () => {
    const targets = evaluateTargets(atTheGoals());
    expect(targets.map((t) => t.target)).toEqual(BOUNDS.map(([target]) => target));
    expect(targets.filter((t) => t.result !== 'pass')).toEqual([]);
  });

  it.each(BOUNDS)('%s: passes at its goal, fails just past it', (target, toGoal, pastGoal) => {
    const atGoal = atTheGoals();
    toGoal(atGoal);
    expect(resultOf(atGoal, target)).toBe('pass');
    const past = atTheGoals();
    toGoal(past);
    pastGoal(past);
    expect(resultOf(past, target)).toBe('FAIL');
  });

  it('does not judge a measurement with failed requests, nor one not taken', () => {
    const results = atTheGoals();
    results.measurements['get-c10'] = { c: at(9000, 5, 3), d: at(2000) };
    expect(resultOf(results, 'get c10: shipped / Prism -v error')).toBe(
      'n/a (invalid: non-success responses)',
    );
    // f is not measured: that says so before anything else.
    expect(resultOf(results, 'get c10: shipped / Prism default logging')).toBe(
      'n/a (not measured)',
    );
    results.measurements['list-c100'] = { c: at(3000, 40) };
    expect(resultOf(results, 'list c100 p99: shipped')).toBe('n/a (not measured)');
    results.rss.d = undefined;
    expect(resultOf(results, 'RSS idle: shipped / Prism -v error')).toBe('n/a (not measured)');
  });
});

describe('the bench sets a goal beside what the validator alone does', () => {
  it("names g's ratio (Express + e-o-v alone) beside the start-up and idle memory goals", () => {
    const results = atTheGoals();
    results.startup.g = { medianMs: 480 };
    results.rss.g = { idleMiB: 57 };
    const goals = Object.fromEntries(evaluateTargets(results).map((t) => [t.target, t.goal]));
    expect(goals['startup to first 200: shipped / Prism -v error']).toBe('≤ 0.25× (g: 0.40×)');
    // g reads its document as the mock does and runs on its launch flags: it bounds idle memory too.
    expect(goals['RSS idle: shipped / Prism -v error']).toBe('≤ 0.5× (g: 0.57×)');
    // Not measured: the goal alone.
    expect(evaluateTargets(atTheGoals()).filter((t) => t.goal.includes('(g:'))).toEqual([]);
  });
});

describe('the bench reports the median of its rounds', () => {
  const round = (rps: number, p99: number, bad = 0): Round => ({
    rps,
    p50: 1,
    p99,
    bad,
    requests: 100,
    statusCounts: { '200': 100 - bad, ...(bad > 0 ? { '500': bad } : {}) },
    connections: 10,
    seconds: 5,
  });

  it('takes each figure from the middle round, so one disturbed round decides nothing', () => {
    const combined = combineRounds([round(9000, 20), round(4000, 90), round(8000, 25)]);
    expect(combined).toMatchObject({ rps: 8000, p99: 25, requests: 300, bad: 0 });
    expect(combined.rounds.map((r) => r.rps)).toEqual([9000, 4000, 8000]);
    expect(combined.rounds.map((r) => r.bad)).toEqual([0, 0, 0]);
  });

  it('keeps every failure: one failing round makes the measurement invalid', () => {
    const combined = combineRounds([
      round(9000, 20),
      { ...round(8000, 20, 3), errors: 1 },
      round(8500, 20),
    ]);
    expect(combined.bad).toBe(3);
    expect(combined.errors).toBe(1);
    expect(combined.rounds.map((r) => r.bad)).toEqual([0, 3, 0]);
    expect(combined.statusCounts).toEqual({ '200': 297, '500': 3 });
  });
});

describe('the bench report', () => {
  function aRun(): BenchRun {
    const results = atTheGoals();
    results.measurements['list-c10'] = {
      ...results.measurements['list-c10'],
      c20: at(600),
      e20: at(2000),
    };
    results.startup.c20 = { medianMs: 450, cpuMedianMs: 400 };
    return {
      ...results,
      date: '2026-11-23T00:00:00.000Z',
      quick: true,
      runtimes: { runner: 'v24.21.0', node24: 'v24.21.0', node20: 'v20.20.2' },
      cpu: 'a CPU',
      pinning: true,
      cores: { runner: '1', servers: { c: '0' } },
      loadAverageAtStart: [0.5, 0.5, 0.5],
      settings: { seconds: 1, warmupSeconds: 0.5, startupRuns: 3 },
      systems: {
        c: { label: 'the app as shipped', column: 'c shipped', available: true },
        c20: { label: 'the app as shipped', column: 'c shipped · Node 20', available: true },
        f: { label: 'Prism', column: 'f Prism default', available: false, reason: 'not here' },
      },
      workloads: [{ id: 'list-c10', label: 'list c10', connections: 10 }],
      targets: evaluateTargets(results),
    };
  }

  it('counts the requests a failed measurement sent once: answered ones plus those unanswered', () => {
    const run = aRun();
    // 100 answered, 2 of them not a success, and 1 request that got no answer at all.
    run.measurements['list-c10'] = {
      ...run.measurements['list-c10'],
      c: { ...at(3000, 5, 3), errors: 1, requests: 100 },
    };
    expect(renderMarkdown(run)).toContain('⚠ 3 of 101 failed');
  });

  it('shows the throughput, startup, Node 20 and target tables', () => {
    const markdown = renderMarkdown(aRun());
    for (const heading of [
      '## Throughput and latency (Node 24)',
      '## Startup, CPU and memory (Node 24)',
      '## Node 24 and Node 20 beside it',
      '## Floors (issue 22, Node 24)',
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain('- **f Prism default**: Prism: unavailable (not here)');
    // list c10 on Node 24 over Node 20 for c, and the startup time on 20 over 24.
    expect(markdown).toMatch(/\| list c10 +\| 3,000 · 1\/5 ms +\| 600 · 1\/5 ms +\| 5\.00× /);
    expect(markdown).toMatch(
      /\| startup to first 200 \(median of 3\) +\| 300 ms +\| 450 ms +\| 1\.50× /,
    );
  });
});
