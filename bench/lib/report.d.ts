/** Types of report.js, for the tests that check how the bench judges issue 22's floors. */

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered with a non-success status or failing. */
  bad: number;
  /** Responses received, whatever their status. */
  requests: number;
  /** Requests that got no response (socket errors, time-outs); part of `bad`. */
  errors?: number;
  statusCounts?: Record<string, number>;
}

/** What evaluateTargets reads: measurements by workload id, then by system key (a–g, c20, e20). */
export interface BenchResults {
  measurements: Record<string, Record<string, Measurement | undefined> | undefined>;
  startup: Record<string, { medianMs: number; cpuMedianMs?: number | null } | undefined>;
  rss: Record<string, { idleMiB?: number; rightAfterLoadMiB?: number } | undefined>;
}

export interface JudgedTarget {
  target: string;
  measured: string;
  value?: number;
  goal: string;
  result: string;
}

export interface SystemEntry {
  label: string;
  column: string;
  runtime?: string;
  available: boolean;
  reason?: string;
}

/** A whole run, as bench/run.js writes it to latest.json. */
export interface BenchRun extends BenchResults {
  date: string;
  quick: boolean;
  runtimes: { runner: string; node24: string; node20: string | null };
  cpu: string;
  pinning: boolean;
  cores: { runner: string | null; servers: Record<string, string | null> };
  loadAverageAtStart: number[];
  settings: {
    seconds: number;
    warmupSeconds: number;
    rounds?: number;
    startupRuns: number;
  };
  systems: Record<string, SystemEntry>;
  workloads: { id: string; label: string; connections: number }[];
  targets: JudgedTarget[];
}

export function evaluateTargets(results: BenchResults): JudgedTarget[];
export function renderMarkdown(results: BenchRun): string;
