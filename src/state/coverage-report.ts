import type { BrokenExample } from '../contract/contract-answers.js';
import type { Operation } from '../contract/operation-index.js';
import type { CoverageTally } from './coverage-tally.js';

/** Answers of one status of one operation, in a report. */
export interface StatusCoverage {
  /** Whether the contract documents this status for the operation. */
  readonly documented: boolean;
  /** Answers with this status, forced ones included. */
  readonly count: number;
  /** Of those, the answers Prefer, X-Mock-Scenario or an active scenario shaped. */
  readonly forced: number;
  /** Of those, the answers that broke the contract (proxy mode: the real service's answers). */
  readonly violations: number;
}

/** One operation of the contract, in a report. */
export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  /** Its path in the contract, below the base path, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** Every documented status (count 0 if never answered), then any other status answered. */
  readonly statuses: Readonly<Record<string, StatusCoverage>>;
  /** Requests that got no answer at all: a network fault, or a client that left first. */
  readonly noAnswer: number;
}

/** A method and path that matched no operation, with how often it was asked. */
export interface UnmatchedCoverage {
  readonly method: string;
  readonly path: string;
  readonly count: number;
}

/** What a test suite exercised of the contract (GET /__admin/coverage). */
export interface CoverageReport {
  readonly summary: {
    /** Operation × documented status pairs of the contract. */
    readonly documented: number;
    /**
     * Of those, the pairs answered at least once (forced answers included, and answers that broke
     * the contract: the pair was exercised; `violations` tells the answer was wrong).
     */
    readonly covered: number;
    /** covered / documented, as a rounded percentage (100 when nothing is documented). */
    readonly percent: number;
    /** Answers that broke the contract, of any status (proxy mode); the CLI gate fails on them. */
    readonly violations: number;
  };
  readonly operations: readonly OperationCoverage[];
  readonly unmatched: readonly UnmatchedCoverage[];
  /**
   * The contract's examples that break their own schema, each with its first breach: the mock
   * answers generated data in their place, and a consumer learns its contract is wrong.
   */
  readonly brokenExamples: readonly BrokenExample[];
}

/** The pairs covered out of those documented, as a percentage (not rounded). */
export function exactPercent(
  summary: Pick<CoverageReport['summary'], 'documented' | 'covered'>,
): number {
  return summary.documented === 0 ? 100 : (summary.covered * 100) / summary.documented;
}

/** Reports a tally against the contract's operations; no tally reports nothing answered. */
export function reportCoverage(
  operations: readonly Operation[],
  tally: CoverageTally | undefined,
  brokenExamples: readonly BrokenExample[] = [],
): CoverageReport {
  let documented = 0;
  let covered = 0;
  let violations = 0;
  const reported = operations.map((op): OperationCoverage => {
    const answered = tally?.statusesOf(op.name) ?? new Map<number, never>();
    const statuses = new Set([...op.statuses, ...answered.keys()]);
    const entries = [...statuses].map((status): [string, StatusCoverage] => {
      const isDocumented = op.statuses.includes(status);
      const counts = answered.get(status) ?? { count: 0, forced: 0, violations: 0 };
      if (isDocumented) {
        documented += 1;
        if (counts.count > 0) covered += 1;
      }
      violations += counts.violations;
      return [
        String(status),
        {
          documented: isDocumented,
          count: counts.count,
          forced: counts.forced,
          violations: counts.violations,
        },
      ];
    });
    return {
      operationId: op.name,
      method: op.method,
      path: op.pathKey,
      statuses: Object.fromEntries(entries),
      noAnswer: tally?.noAnswerOf(op.name) ?? 0,
    };
  });
  const percent = Math.round(exactPercent({ documented, covered }));
  const summary = { documented, covered, percent, violations };
  return {
    summary,
    operations: reported,
    unmatched: tally?.unmatched() ?? [],
    brokenExamples,
  };
}
