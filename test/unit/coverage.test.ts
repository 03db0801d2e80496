import {
  coverageFormatOfFile,
  formatCoverage,
  uncoveredPairs,
} from '../../src/coverage/coverage-formats.js';
import { reportCoverage, type CoverageReport } from '../../src/coverage/coverage-report.js';
import { COVERAGE_LIMITS, CoverageTally } from '../../src/coverage/coverage-tally.js';
import {
  NotACoverageReportError,
  readCoverageReport,
} from '../../src/coverage/read-coverage-report.js';
import { TopCounts } from '../../src/coverage/top-counts.js';
import { contract } from '../helpers/test-app.js';

const OPERATIONS = contract.operations.operations;

function answer(operationId: string, status: number | null, forced = false) {
  return { kind: 'operation', operationId, status, forced } as const;
}

function unmatched(method: string, path: string) {
  return { kind: 'unmatched', method, path } as const;
}

/** A tally of the issue's sequence: 6 of the 8 documented pairs, one undocumented, one unmatched. */
function issueTally(): CoverageTally {
  const tally = new CoverageTally();
  for (const [id, status, forced] of [
    ['listPets', 200, false],
    ['listPets', 401, false],
    ['createPet', 201, false],
    ['createPet', 400, false],
    ['getPet', 404, false],
    ['getPet', 401, true],
    ['listPets', 400, false],
  ] as const) {
    tally.record(answer(id, status, forced));
  }
  tally.record(unmatched('GET', '/v1/nope'));
  return tally;
}

describe('TopCounts: the most frequent keys in bounded memory', () => {
  it('counts exactly while fewer keys than its capacity were seen', () => {
    const top = new TopCounts(3);
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) top.add(key);
    expect(top.list()).toEqual([
      { key: 'a', count: 3 },
      { key: 'b', count: 2 },
      { key: 'c', count: 1 },
    ]);
  });

  it('never holds more than its capacity', () => {
    const top = new TopCounts(5);
    for (let i = 0; i < 1000; i += 1) top.add(String(i));
    expect(top.size).toBe(5);
  });

  it('keeps a key seen more than total/capacity times, among many rare ones (Space-Saving)', () => {
    const top = new TopCounts(4);
    for (let i = 0; i < 200; i += 1) {
      top.add(`rare-${i}`);
      if (i >= 20 && i % 2 === 0) top.add('frequent');
    }
    // 90 of 290: more than 290 / 4. Its count is exact (it was never replaced), the rare ones'
    // are what was seen since they were taken in: never more than they really had.
    expect(top.list()).toEqual([
      { key: 'frequent', count: 90 },
      ...['rare-197', 'rare-198', 'rare-199'].map((key) => ({ key, count: 1 })),
    ]);
  });

  it('counts nothing with capacity 0, and clear() empties it', () => {
    const none = new TopCounts(0);
    none.add('a');
    expect(none.list()).toEqual([]);
    const top = new TopCounts(2);
    top.add('a');
    top.clear();
    expect(top.list()).toEqual([]);
  });
});

describe('CoverageTally', () => {
  it('counts by operation and status, forced answers apart, no answer apart', () => {
    const tally = new CoverageTally();
    tally.record(answer('getPet', 404));
    tally.record(answer('getPet', 404, true));
    tally.record(answer('getPet', null, true));
    expect([...tally.statusesOf('getPet')]).toEqual([[404, { count: 2, forced: 1 }]]);
    expect(tally.noAnswerOf('getPet')).toBe(1);
    expect(tally.noAnswerOf('listPets')).toBe(0);
  });

  it(`keeps at most ${COVERAGE_LIMITS.unmatched} unmatched requests, paths and methods cut short`, () => {
    const tally = new CoverageTally();
    for (let i = 0; i < COVERAGE_LIMITS.unmatched * 3; i += 1) {
      tally.record(unmatched('GET', `/v1/${i}/${'p'.repeat(1000)}`));
    }
    tally.record(unmatched('X'.repeat(100), '/v1/x'));
    const kept = tally.unmatched();
    expect(kept).toHaveLength(COVERAGE_LIMITS.unmatched);
    for (const { method, path } of kept) {
      expect(path.length).toBeLessThanOrEqual(COVERAGE_LIMITS.path + 1);
      expect(method.length).toBeLessThanOrEqual(COVERAGE_LIMITS.method + 1);
    }
  });

  it('forgets everything on clear()', () => {
    const tally = issueTally();
    tally.clear();
    expect(reportCoverage(OPERATIONS, tally)).toEqual(reportCoverage(OPERATIONS, undefined));
  });
});

describe('reportCoverage: a tally against the contract', () => {
  it('documents 8 operation × status pairs in openapi.yaml, each listed even when never answered', () => {
    const report = reportCoverage(OPERATIONS, undefined);
    expect(report.summary).toEqual({ documented: 8, covered: 0, percent: 0 });
    expect(report.operations.map((op) => [op.operationId, Object.keys(op.statuses)])).toEqual([
      ['listPets', ['200', '401']],
      ['createPet', ['201', '400', '401']],
      ['getPet', ['200', '401', '404']],
    ]);
  });

  it('counts covered pairs (forced ones too) and lists undocumented statuses once answered', () => {
    const report = reportCoverage(OPERATIONS, issueTally());
    expect(report.summary).toEqual({ documented: 8, covered: 6, percent: 75 });
    expect(report.operations[0]?.statuses['400']).toEqual({
      documented: false,
      count: 1,
      forced: 0,
    });
    expect(uncoveredPairs(report)).toEqual(['createPet 401', 'getPet 200']);
  });

  it('rounds the percentage: 1 of 8 is 13', () => {
    const tally = new CoverageTally();
    tally.record(answer('listPets', 200));
    expect(reportCoverage(OPERATIONS, tally).summary.percent).toBe(13);
  });

  it('reports 100% of nothing for a contract that documents no status', () => {
    expect(reportCoverage([], undefined).summary).toEqual({
      documented: 0,
      covered: 0,
      percent: 100,
    });
  });
});

describe('formatCoverage', () => {
  const report = reportCoverage(OPERATIONS, issueTally());

  it('json: the report itself', () => {
    expect(readCoverageReport(JSON.parse(formatCoverage(report, 'json')))).toEqual(report);
  });

  it('markdown: a headline and one table row per operation × status', () => {
    const md = formatCoverage(report, 'markdown');
    expect(md).toMatch(/^### Contract coverage: 6 of 8 documented answers \(75%\)\n/);
    expect(md).toContain('| listPets | GET | /pets | 200 | ✅ covered | 1 | 0 |');
    expect(md).toContain('| getPet | GET | /pets/{petId} | 200 | ❌ never answered | 0 | 0 |');
    expect(md).toContain('| listPets | GET | /pets | 400 | not in the contract | 1 | 0 |');
    expect(md).toContain('| GET | /v1/nope | 1 |');
  });

  it('markdown: a path a client chose cannot break the table or inject HTML', () => {
    const tally = new CoverageTally();
    tally.record(unmatched('GET', '/v1/a|b<script>x</script>`*'));
    const md = formatCoverage(reportCoverage(OPERATIONS, tally), 'markdown');
    expect(md).toContain('| GET | /v1/a\\|b&lt;script&gt;x&lt;/script&gt;\\`\\* | 1 |');
  });

  it('junit: one test case per documented pair, failed when never answered', () => {
    const xml = formatCoverage(report, 'junit');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(xml.match(/<testcase /g)).toHaveLength(8);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain('tests="8" failures="2"');
    expect(xml).toContain('<testcase classname="getPet" name="GET /pets/{petId} answers 200">');
    expect(xml).toContain('<testcase classname="listPets" name="GET /pets answers 200"/>');
  });

  it('junit: escapes what a client sent, and drops what XML cannot hold', () => {
    const tally = new CoverageTally();
    tally.record(unmatched('GET', '/v1/&<>"\'\u0001'));
    const xml = formatCoverage(reportCoverage(OPERATIONS, tally), 'junit');
    expect(xml).toContain('/v1/&amp;&lt;&gt;&quot;&apos;');
    expect(xml).not.toContain('\u0001');
  });

  it('text: a headline, a table, and what got no answer', () => {
    const tally = issueTally();
    tally.record(answer('createPet', null, true));
    const text = formatCoverage(reportCoverage(OPERATIONS, tally), 'text');
    expect(text.split('\n')[0]).toBe('Contract coverage: 6 of 8 documented answers (75%)');
    expect(text).toMatch(/createPet +POST +\/pets +401 +0 +0 +never answered/);
    expect(text).toMatch(/No answer \(network fault, or the client left\):\n +createPet +1/);
    expect(text).toMatch(/Matched no operation of the contract:\n +GET +\/v1\/nope +1/);
  });
});

describe('coverage files and reports read back', () => {
  it.each([
    ['coverage.json', 'json'],
    ['out/coverage.md', 'markdown'],
    ['TEST-coverage.XML', 'junit'],
    ['coverage.txt', undefined],
    ['coverage', undefined],
  ])('%s is written as %s', (path, format) => {
    expect(coverageFormatOfFile(path)).toBe(format);
  });

  it.each([
    ['null', null],
    ['no summary', { operations: [], unmatched: [] }],
    [
      'a negative count',
      { summary: { documented: -1, covered: 0, percent: 0 }, operations: [], unmatched: [] },
    ],
    [
      'a status without documented',
      {
        summary: { documented: 1, covered: 0, percent: 0 },
        operations: [
          { operationId: 'x', method: 'GET', path: '/', statuses: { 200: {} }, noAnswer: 0 },
        ],
        unmatched: [],
      },
    ],
  ])('refuses %s as a report', (_what, value) => {
    expect(() => readCoverageReport(value)).toThrow(NotACoverageReportError);
  });

  it('reads back what it wrote', () => {
    const report: CoverageReport = reportCoverage(OPERATIONS, issueTally());
    expect(readCoverageReport(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });
});
