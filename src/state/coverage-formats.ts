import { COVERAGE_FORMATS, type CoverageFormat } from '../config/vocabularies.js';
import { exactPercent, type CoverageReport, type OperationCoverage } from './coverage-report.js';

export {
  COVERAGE_FORMATS,
  coverageFormatOfFile,
  type CoverageFormat,
} from '../config/vocabularies.js';

/** The Content-Type of each format, as the admin API answers it. */
export const COVERAGE_CONTENT_TYPES: Readonly<Record<CoverageFormat, string>> = {
  json: 'application/json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  junit: 'application/xml; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};

export function isCoverageFormat(value: unknown): value is CoverageFormat {
  return COVERAGE_FORMATS.some((format) => format === value);
}

/** One row per operation × status: documented ones, then any other status answered. */
interface Row {
  readonly op: OperationCoverage;
  readonly status: string;
  readonly documented: boolean;
  readonly count: number;
  readonly forced: number;
  readonly violations: number;
}

function rowsOf(report: CoverageReport): Row[] {
  return report.operations.flatMap((op) =>
    Object.entries(op.statuses)
      .map(([status, s]) => ({ op, status, ...s }))
      // Stable: the statuses stay in ascending order within each group.
      .sort((a, b) => Number(b.documented) - Number(a.documented)),
  );
}

/** The documented pairs never answered, as `operationId status`. */
export function uncoveredPairs(report: CoverageReport): string[] {
  return rowsOf(report)
    .filter((row) => row.documented && row.count === 0)
    .map((row) => `${row.op.operationId} ${row.status}`);
}

/** `1 answer broke the contract`, `2 answers broke ...`: the gate's message says it too. */
export function violationsText(violations: number): string {
  return `${violations} ${violations === 1 ? 'answer' : 'answers'} broke the contract`;
}

function headline(report: CoverageReport): string {
  const { documented, covered, percent, violations } = report.summary;
  const line = `Contract coverage: ${covered} of ${documented} documented answers (${percent}%)`;
  // Said only when there are some: only proxy mode counts any (the real service's answers).
  return violations > 0 ? `${line}; ${violationsText(violations)}` : line;
}

function verdict(row: Row): string {
  if (!row.documented) return 'not in the contract';
  return row.count > 0 ? 'covered' : 'never answered';
}

// Client-chosen text (an unmatched path) must not become Markdown or HTML in a job summary.
function markdownText(text: string): string {
  return text
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function markOf(row: Row): string {
  if (row.count === 0) return '❌ ';
  return row.violations > 0 ? '⚠️ ' : '✅ ';
}

function toMarkdown(report: CoverageReport): string {
  const lines = [
    `### ${headline(report)}`,
    '',
    '| operation | method | path | status | result | answers | forced | violations |',
    '| --- | --- | --- | --- | --- | ---: | ---: | ---: |',
    ...rowsOf(report).map((row) => {
      const mark = row.documented ? markOf(row) : '';
      return `| ${markdownText(row.op.operationId)} | ${row.op.method} | ${markdownText(row.op.path)} | ${row.status} | ${mark}${verdict(row)} | ${row.count} | ${row.forced} | ${row.violations} |`;
    }),
  ];
  const noAnswer = report.operations.filter((op) => op.noAnswer > 0);
  if (noAnswer.length > 0) {
    lines.push(
      '',
      `No answer (network fault, or the client left): ${noAnswer
        .map((op) => `${markdownText(op.operationId)} ${op.noAnswer}`)
        .join(', ')}.`,
    );
  }
  if (report.unmatched.length > 0) {
    lines.push(
      '',
      'Requests that matched no operation of the contract:',
      '',
      '| method | path | requests |',
      '| --- | --- | ---: |',
      ...report.unmatched.map(
        (u) => `| ${markdownText(u.method)} | ${markdownText(u.path)} | ${u.count} |`,
      ),
    );
  }
  if (report.brokenExamples.length > 0) {
    lines.push(
      '',
      "The contract's examples that break their own schema (the mock answers generated data instead):",
      '',
      '| operation | status | media type | example | first breach |',
      '| --- | --- | --- | --- | --- |',
      ...report.brokenExamples.map(
        (b) =>
          `| ${markdownText(b.operation)} | ${b.status} | ${markdownText(b.mediaType)} | ${markdownText(b.example ?? '')} | ${markdownText(b.problem)} |`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

// XML 1.0 has no way to write most control characters: they are dropped, the rest escaped.
function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A failed test case's failure element, or undefined for a passed one. */
function junitFailure(row: Row): string | undefined {
  const { operationId, method, path } = row.op;
  if (row.violations > 0) {
    const message = `${operationId} ${row.status}: ${row.violations} of ${row.count} ${row.count === 1 ? 'answer' : 'answers'} broke the contract`;
    return `      <failure type="contract_violation" message="${xmlText(message)}">${xmlText(
      `Answers with ${row.status} to ${operationId} (${method} ${path}) that broke the contract: ${row.violations} of ${row.count}. The request journal (GET /__admin/requests) names each violation.`,
    )}</failure>`;
  }
  if (row.count > 0) return undefined;
  const message = `${operationId} never answered ${row.status}`;
  return `      <failure type="uncovered" message="${xmlText(message)}">${xmlText(
    `No request of the tests got the ${row.status} the contract documents for ${operationId} (${method} ${path}).`,
  )}</failure>`;
}

function toJunit(report: CoverageReport): string {
  // Every documented pair, and every other status whose answers broke the contract.
  const cases = rowsOf(report).filter((row) => row.documented || row.violations > 0);
  const failures = cases.filter((row) => junitFailure(row) !== undefined).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="0"`;
  const name = 'petstore-mock contract coverage';
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${counts}>`,
    `  <testsuite name="${name}" ${counts}>`,
    ...cases.map((row) => {
      const what = `${row.op.method} ${row.op.path} answers ${row.status}`;
      const open = `    <testcase classname="${xmlText(row.op.operationId)}" name="${xmlText(what)}"`;
      const failure = junitFailure(row);
      if (failure === undefined) return `${open}/>`;
      return [`${open}>`, failure, '    </testcase>'].join('\n');
    }),
    `    <system-out>${xmlText(toText(report))}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map((row) =>
    `  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd(),
  );
}

function toText(report: CoverageReport): string {
  const lines = [
    headline(report),
    '',
    ...table([
      ['operation', 'method', 'path', 'status', 'answers', 'forced', 'violations', 'result'],
      ...rowsOf(report).map((row) => [
        row.op.operationId,
        row.op.method,
        row.op.path,
        row.status,
        String(row.count),
        String(row.forced),
        String(row.violations),
        verdict(row),
      ]),
    ]),
  ];
  const noAnswer = report.operations.filter((op) => op.noAnswer > 0);
  if (noAnswer.length > 0) {
    lines.push('', 'No answer (network fault, or the client left):');
    lines.push(...table(noAnswer.map((op) => [op.operationId, String(op.noAnswer)])));
  }
  if (report.unmatched.length > 0) {
    lines.push('', 'Matched no operation of the contract:');
    lines.push(...table(report.unmatched.map((u) => [u.method, u.path, String(u.count)])));
  }
  if (report.brokenExamples.length > 0) {
    lines.push('', "The contract's examples that break their own schema:");
    lines.push(
      ...table(
        report.brokenExamples.map((b) => [b.operation, String(b.status), b.mediaType, b.problem]),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A report written out in one of the formats (each ends with a newline). */
export function formatCoverage(report: CoverageReport, format: CoverageFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'markdown':
      return toMarkdown(report);
    case 'junit':
      return toJunit(report);
    case 'text':
      return toText(report);
  }
}

/** A percentage for a message: whole, or with one decimal when it is not. */
export function percentText(report: CoverageReport): string {
  const exact = exactPercent(report.summary);
  return `${Number.isInteger(exact) ? exact : exact.toFixed(1)}%`;
}
