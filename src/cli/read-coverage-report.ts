import { isRecord } from '../util/is-record.js';
import type { BrokenExample } from '../contract/contract-answers.js';
import type {
  CoverageReport,
  OperationCoverage,
  StatusCoverage,
  UnmatchedCoverage,
} from '../state/coverage-report.js';

/** A body that is not a coverage report (another server, or another version of the mock). */
export class NotACoverageReportError extends Error {
  override name = 'NotACoverageReportError';
}

function fail(what: string): never {
  throw new NotACoverageReportError(`not a coverage report: ${what}`);
}

function count(value: unknown, what: string): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : fail(`${what} is not a count`);
}

function text(value: unknown, what: string): string {
  return typeof value === 'string' ? value : fail(`${what} is not a string`);
}

function readStatus(value: unknown, what: string): StatusCoverage {
  if (!isRecord(value) || typeof value.documented !== 'boolean') fail(what);
  const answers = count(value.count, `${what}.count`);
  const violations = count(value.violations, `${what}.violations`);
  if (violations > answers) fail(`${what}.violations is more than its count`);
  return {
    documented: value.documented,
    count: answers,
    forced: count(value.forced, `${what}.forced`),
    violations,
  };
}

function readOperation(value: unknown, i: number): OperationCoverage {
  const what = `operations[${i}]`;
  if (!isRecord(value) || !isRecord(value.statuses)) fail(what);
  const statuses: Record<string, StatusCoverage> = {};
  for (const [status, entry] of Object.entries(value.statuses)) {
    statuses[status] = readStatus(entry, `${what}.statuses.${status}`);
  }
  return {
    operationId: text(value.operationId, `${what}.operationId`),
    method: text(value.method, `${what}.method`),
    path: text(value.path, `${what}.path`),
    statuses,
    noAnswer: count(value.noAnswer, `${what}.noAnswer`),
  };
}

function readUnmatched(value: unknown, i: number): UnmatchedCoverage {
  const what = `unmatched[${i}]`;
  if (!isRecord(value)) fail(what);
  return {
    method: text(value.method, `${what}.method`),
    path: text(value.path, `${what}.path`),
    count: count(value.count, `${what}.count`),
  };
}

function readBrokenExample(value: unknown, index: number): BrokenExample {
  const what = `brokenExamples[${index}]`;
  if (!isRecord(value)) fail(what);
  return {
    operation: text(value.operation, `${what}.operation`),
    status: count(value.status, `${what}.status`),
    mediaType: text(value.mediaType, `${what}.mediaType`),
    ...(typeof value.example === 'string' && { example: value.example }),
    problem: text(value.problem, `${what}.problem`),
  };
}

/** Narrows a parsed JSON body to a CoverageReport, or throws NotACoverageReportError. */
export function readCoverageReport(value: unknown): CoverageReport {
  if (!isRecord(value) || !isRecord(value.summary)) fail('no summary');
  if (!Array.isArray(value.operations) || !Array.isArray(value.unmatched)) fail('no lists');
  const { summary } = value;
  return {
    summary: {
      documented: count(summary.documented, 'summary.documented'),
      covered: count(summary.covered, 'summary.covered'),
      percent: count(summary.percent, 'summary.percent'),
      violations: count(summary.violations, 'summary.violations'),
    },
    operations: value.operations.map(readOperation),
    unmatched: value.unmatched.map(readUnmatched),
    // A report of a mock before 0.4 has none.
    brokenExamples: Array.isArray(value.brokenExamples)
      ? value.brokenExamples.map(readBrokenExample)
      : [],
  };
}
