/** Types of rounds.js, for its tests. */
import type { Measurement } from './report.js';

export interface Round extends Measurement {
  statusCounts: Record<string, number>;
  connections: number;
  seconds: number;
}

export function median(values: readonly number[]): number;
export function combineRounds(
  rounds: readonly Round[],
): Round & { rounds: { rps: number; p50: number; p99: number; bad: number }[] };
