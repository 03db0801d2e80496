import { evaluateTargets, type BenchResults, type Measurement } from '../../bench/lib/report.js';

const at = (rps: number, p99 = 5, bad = 0): Measurement => ({
  rps,
  p50: 1,
  p99,
  bad,
  requests: 1000,
});

/** A run exactly at every goal of issue 5: every target must pass. */
function atTheGoals(): BenchResults {
  return {
    measurements: {
      'list-c10': { b: at(1000), c: at(1500), d: at(1000) },
      'get-c10': { b: at(6500), c: at(5200), d: at(2000) },
      'create-c10': { b: at(6250), c: at(5000), d: at(2000) },
      'list-c100': { c: at(3000, 40) },
      'list20-100': { c: at(1250) },
      'list20-100k': { c: at(1000) },
      'create-10k-mem': { c: at(2000) },
      'create-10k-db': { c: at(1000) },
    },
    startup: { c: { medianMs: 350 } },
    rss: { c: { idleMiB: 80, afterLoadMiB: 150 } },
  };
}

const resultOf = (results: BenchResults, target: string): string | undefined =>
  evaluateTargets(results).find((t) => t.target === target)?.result;

describe('the bench judges issue 5 targets', () => {
  it('passes all 14 targets of a run exactly at the goals (the bounds are inclusive)', () => {
    const targets = evaluateTargets(atTheGoals());
    expect(targets).toHaveLength(14);
    expect(targets.filter((t) => t.result !== 'pass')).toEqual([]);
  });

  it.each([
    [
      'list c10: shipped / Prism',
      (r: BenchResults) => (r.measurements['list-c10'] = { b: at(1000), c: at(1499), d: at(1000) }),
    ],
    ['startup to first 200: shipped', (r: BenchResults) => (r.startup.c = { medianMs: 351 })],
    [
      'RSS after load: shipped',
      (r: BenchResults) => (r.rss.c = { idleMiB: 80, afterLoadMiB: 151 }),
    ],
    [
      'list c100 p99: shipped',
      (r: BenchResults) => (r.measurements['list-c100'] = { c: at(3000, 41) }),
    ],
    [
      'creates at 10k pets: --db / in memory',
      (r: BenchResults) => (r.measurements['create-10k-db'] = { c: at(999) }),
    ],
  ])('fails %s just past its goal', (target, spoil) => {
    const results = atTheGoals();
    spoil(results);
    expect(resultOf(results, target)).toBe('FAIL');
  });

  it('does not judge a measurement with failed requests, nor one not taken', () => {
    const results = atTheGoals();
    results.measurements['get-c10'] = { b: at(6500), c: at(9000, 5, 3) };
    expect(resultOf(results, 'get c10: shipped')).toBe('n/a (invalid: non-success responses)');
    expect(resultOf(results, 'get c10: shipped / Prism')).toBe('n/a (not measured)');
  });
});
