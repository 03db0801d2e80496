/** Types of redis-figures.js, for its tests. */
import type { JudgedTarget } from './report.js';

export const MARKERS: { sent: string; answered: string };
export const GOALS: { overMemory: number; roundTrips: number };

export interface MonitorEvent {
  args: string[];
  source: string;
}

export interface Split {
  before: Record<string, number>;
  after: Record<string, number>;
  records: number[];
}

export interface CountedKind {
  label: string;
  paces: Record<string, Split & { requests: number }>;
}

export function parseInfo(text: string): Record<string, string>;
export function usedCpuSeconds(infoText: string): number;
export function commandCalls(infoText: string): Record<string, number>;
export function perRequest(
  calls: Record<string, number>,
  requests: number,
): { scripts: number; commands: number };
export function scriptNames(scriptsModule: Record<string, unknown>): Map<string, string>;
export function commandName(args: readonly string[], names: ReadonlyMap<string, string>): string;
export function splitByAnswer(
  events: readonly MonitorEvent[],
  options: { mockSources: ReadonlySet<string>; names: ReadonlyMap<string, string>; arity: number },
): Split;
export function replicasPerRedis(
  cpuSecondsPerRequest: number,
  replicaRps: number,
): { coreRps: number; replicas: number };
export function ownPathCalls(split: Pick<Split, 'before'>, requests: number): number;
/** What the bench read of the cores in each round, by server. */
export type WorkloadUsage = Record<string, { rounds: { serverCore: number }[] } | undefined>;

export function disturbed(usage: WorkloadUsage | undefined): boolean;
export function judgeGoals(results: {
  workloads: { id: string; label: string }[];
  usage: Record<string, WorkloadUsage | undefined>;
  measurements: Record<
    string,
    Record<string, { rps: number; bad: number } | undefined> | undefined
  >;
  counted: Record<string, CountedKind>;
}): JudgedTarget[];
