import {
  coverageFormatOfFile,
  formatCoverage,
  uncoveredPairs,
} from '../../src/state/coverage-formats.js';
import { reportCoverage, type CoverageReport } from '../../src/state/coverage-report.js';
import { COVERAGE_LIMITS, CoverageTally } from '../../src/state/coverage-tally.js';
import { NotACoverageReportError, readCoverageReport } from '../../src/cli/read-coverage-report.js';
import { TopCounts } from '../../src/state/top-counts.js';
import { contract } from '../helpers/test-app.js';

const OPERATIONS = contract.operations.operations;

function answer(operationId: string, status: number | null, forced = false, brokeContract = false) {
  return { kind: 'operation', operationId, status, forced, brokeContract } as const;
}

/** An answer of the real service (proxy mode) that broke the contract. */
function broken(operationId: string, status: number) {
  return answer(operationId, status, false, true);
}

/** The issue's tally, then what a drifted real service answered: 3 answers broke the contract. */
function proxiedTally(): CoverageTally {
  const tally = issueTally();
  tally.record(broken('listPets', 200)); // one of listPets' two 200s
  tally.record(broken('getPet', 200)); // getPet 200 answered only with broken answers
  tally.record(broken('getPet', 503)); // a status the contract does not document
  return tally;
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
    expect([...tally.statusesOf('getPet')]).toEqual([
      [404, { count: 2, forced: 1, violations: 0 }],
    ]);
    expect(tally.noAnswerOf('getPet')).toBe(1);
    expect(tally.noAnswerOf('listPets')).toBe(0);
  });

  it('counts the answers that broke the contract by status', () => {
    const tally = new CoverageTally();
    tally.record(answer('getPet', 200));
    tally.record(broken('getPet', 200));
    tally.record(broken('getPet', 503));
    expect([...tally.statusesOf('getPet')]).toEqual([
      [200, { count: 2, forced: 0, violations: 1 }],
      [503, { count: 1, forced: 0, violations: 1 }],
    ]);
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
    expect(report.summary).toEqual({ documented: 8, covered: 0, percent: 0, violations: 0 });
    expect(report.operations.map((op) => [op.operationId, Object.keys(op.statuses)])).toEqual([
      ['listPets', ['200', '401']],
      ['createPet', ['201', '400', '401']],
      ['getPet', ['200', '401', '404']],
    ]);
  });

  it('counts covered pairs (forced ones too) and lists undocumented statuses once answered', () => {
    const report = reportCoverage(OPERATIONS, issueTally());
    expect(report.summary).toEqual({ documented: 8, covered: 6, percent: 75, violations: 0 });
    expect(report.operations[0]?.statuses['400']).toEqual({
      documented: false,
      count: 1,
      forced: 0,
      violations: 0,
    });
    expect(uncoveredPairs(report)).toEqual(['createPet 401', 'getPet 200']);
  });

  it('counts violations per status and in the summary; a broken answer still covers its status', () => {
    const report = reportCoverage(OPERATIONS, proxiedTally());
    expect(report.summary).toEqual({ documented: 8, covered: 7, percent: 88, violations: 3 });
    const [listPets, , getPet] = report.operations;
    expect(listPets?.statuses['200']).toEqual({
      documented: true,
      count: 2,
      forced: 0,
      violations: 1,
    });
    expect(getPet?.statuses['200']).toEqual({
      documented: true,
      count: 1,
      forced: 0,
      violations: 1,
    });
    expect(getPet?.statuses['503']).toEqual({
      documented: false,
      count: 1,
      forced: 0,
      violations: 1,
    });
    expect(uncoveredPairs(report)).toEqual(['createPet 401']);
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
      violations: 0,
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
    expect(md).toContain('| status | result | answers | forced | violations |');
    expect(md).toContain('| listPets | GET | /pets | 200 | ✅ covered | 1 | 0 | 0 |');
    expect(md).toContain('| getPet | GET | /pets/{petId} | 200 | ❌ never answered | 0 | 0 | 0 |');
    expect(md).toContain('| listPets | GET | /pets | 400 | not in the contract | 1 | 0 | 0 |');
    expect(md).toContain('| GET | /v1/nope | 1 |');
  });

  it('markdown: the violations in the headline, a column, and a warning mark', () => {
    const md = formatCoverage(reportCoverage(OPERATIONS, proxiedTally()), 'markdown');
    expect(md).toMatch(
      /^### Contract coverage: 7 of 8 documented answers \(88%\); 3 answers broke the contract\n/,
    );
    expect(md).toContain('| listPets | GET | /pets | 200 | ⚠️ covered | 2 | 0 | 1 |');
    expect(md).toContain(
      '| getPet | GET | /pets/{petId} | 503 | not in the contract | 1 | 0 | 1 |',
    );
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

  it('junit: a failed test case per operation × status whose answers broke the contract', () => {
    const xml = formatCoverage(reportCoverage(OPERATIONS, proxiedTally()), 'junit');
    // 8 documented pairs and the undocumented getPet 503; createPet 401 never answered.
    expect(xml).toContain('tests="9" failures="4"');
    expect(xml.match(/<failure type="contract_violation" /g)).toHaveLength(3);
    expect(xml).toContain(
      '<failure type="contract_violation" message="listPets 200: 1 of 2 answers broke the contract">',
    );
    expect(xml).toContain('<testcase classname="getPet" name="GET /pets/{petId} answers 503">');
    expect(xml).toContain('message="getPet 503: 1 of 1 answer broke the contract"');
    // Answered without a violation: passes, as before.
    expect(xml).toContain('<testcase classname="listPets" name="GET /pets answers 401"/>');
    // An undocumented status answered without a violation (the mock's own 400) is no test case.
    expect(xml).not.toContain('name="GET /pets answers 400"');
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
    expect(text).toMatch(/answers +forced +violations +result\n/);
    expect(text).toMatch(/createPet +POST +\/pets +401 +0 +0 +0 +never answered/);
    expect(text).toMatch(/No answer \(network fault, or the client left\):\n +createPet +1/);
    expect(text).toMatch(/Matched no operation of the contract:\n +GET +\/v1\/nope +1/);
  });

  it('text: the violations in the headline and their column', () => {
    const text = formatCoverage(reportCoverage(OPERATIONS, proxiedTally()), 'text');
    expect(text.split('\n')[0]).toBe(
      'Contract coverage: 7 of 8 documented answers (88%); 3 answers broke the contract',
    );
    expect(text).toMatch(/getPet +GET +\/pets\/\{petId\} +200 +1 +0 +1 +covered/);
    expect(text).toMatch(/getPet +GET +\/pets\/\{petId\} +503 +1 +0 +1 +not in the contract/);
  });
});

/** A one-operation report body with one status's counts as given. */
function reportWithStatus(status: Record<string, unknown>) {
  return {
    summary: { documented: 1, covered: 1, percent: 100, violations: 2 },
    operations: [
      { operationId: 'x', method: 'GET', path: '/', statuses: { 200: status }, noAnswer: 0 },
    ],
    unmatched: [],
  };
}

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
      {
        summary: { documented: -1, covered: 0, percent: 0, violations: 0 },
        operations: [],
        unmatched: [],
      },
    ],
    [
      'a summary without violations (an older mock)',
      { summary: { documented: 0, covered: 0, percent: 100 }, operations: [], unmatched: [] },
    ],
    [
      'a status without documented',
      {
        summary: { documented: 1, covered: 0, percent: 0, violations: 0 },
        operations: [
          { operationId: 'x', method: 'GET', path: '/', statuses: { 200: {} }, noAnswer: 0 },
        ],
        unmatched: [],
      },
    ],
    ['a status without violations', reportWithStatus({ documented: true, count: 1, forced: 0 })],
    [
      'more violations than answers',
      reportWithStatus({ documented: true, count: 1, forced: 0, violations: 2 }),
    ],
  ])('refuses %s as a report', (_what, value) => {
    expect(() => readCoverageReport(value)).toThrow(NotACoverageReportError);
  });

  it('reads back what it wrote', () => {
    const report: CoverageReport = reportCoverage(OPERATIONS, proxiedTally());
    expect(readCoverageReport(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });
});
