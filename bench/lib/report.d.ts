/** Types of report.js, for the tests that check how the bench judges issue 5's targets. */

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered with a non-success status or failing. */
  bad: number;
  requests: number;
}

export interface BenchResults {
  measurements: Record<string, Record<string, Measurement | undefined> | undefined>;
  startup: Record<string, { medianMs: number } | undefined>;
  rss: Record<string, { idleMiB?: number; afterLoadMiB?: number } | undefined>;
}

export interface JudgedTarget {
  target: string;
  measured: string;
  value?: number;
  goal: string;
  result: string;
}

export function evaluateTargets(results: BenchResults): JudgedTarget[];
export function renderMarkdown(results: BenchResults): string;
