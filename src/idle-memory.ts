import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Growth of the resident memory since the last release (or since the mock first stood idle) that
 * is worth a release: one takes about 80 ms of CPU at 170 MiB. A burst of load leaves more than
 * this behind (new space at its cap, old space between two collections, V8's pool of free pages);
 * a few requests do not.
 */
export const RELEASE_GROWTH_BYTES = 32 * 1024 * 1024;

/** The loop is sampled this often; idle means at most 2% busy, IDLE_CHECKS samples in a row. */
const CHECK_INTERVAL_MS = 1000;
const IDLE_UTILIZATION = 0.02;
const IDLE_CHECKS = 2;

/** What the decision reads and does, handed in (the tests give their own). */
export interface MemoryProbe {
  /** Share of the time since the last call that the event loop was busy, 0 to 1. */
  utilization(): number;
  /** Resident memory in bytes. */
  rss(): number;
  /** A full collection that gives free memory back to the system. */
  collect(): void;
}

/** One release: the resident memory before and after it, and how long it took. */
export interface Release {
  readonly beforeBytes: number;
  readonly afterBytes: number;
  readonly ms: number;
}

/**
 * Decides, one sample at a time, when to give memory back: once the mock has stood idle for
 * IDLE_CHECKS samples and its resident memory has grown by RELEASE_GROWTH_BYTES over the baseline.
 * The baseline is what was resident when the mock started serving, then what is left after the
 * last release, so memory that stays in use (a large store) is not collected for again and again;
 * it follows the memory down when that shrinks by itself.
 */
export class IdleRelease {
  readonly #probe: MemoryProbe;
  readonly #now: () => number;
  #idleChecks = 0;
  #baseline: number;

  /** Made once the mock serves: its resident memory then is the first baseline. */
  constructor(probe: MemoryProbe, now: () => number = () => performance.now()) {
    this.#probe = probe;
    this.#now = now;
    this.#baseline = probe.rss();
  }

  /** Takes one sample; returns the release made, if any. */
  sample(): Release | undefined {
    if (this.#probe.utilization() > IDLE_UTILIZATION) {
      this.#idleChecks = 0;
      return undefined;
    }
    this.#idleChecks += 1;
    if (this.#idleChecks < IDLE_CHECKS) return undefined;
    const beforeBytes = this.#probe.rss();
    if (beforeBytes < this.#baseline) {
      this.#baseline = beforeBytes;
      return undefined;
    }
    if (beforeBytes - this.#baseline < RELEASE_GROWTH_BYTES) return undefined;
    const start = this.#now();
    this.#probe.collect();
    const afterBytes = this.#probe.rss();
    this.#baseline = afterBytes;
    return { beforeBytes, afterBytes, ms: this.#now() - start };
  }
}

/** The options of V8's `gc` extension that this module uses. */
interface CollectOptions {
  type: 'major';
  execution: 'sync';
  /** `last-resort`: collects until nothing more is freed, and frees V8's pooled pages. */
  flavor: 'last-resort';
}

function isCollector(value: unknown): value is (options: CollectOptions) => void {
  return typeof value === 'function';
}

/** Node 24+: see lastResortCollector. */
function givesMemoryBack(): boolean {
  return Number(process.versions.node.split('.')[0]) >= 24;
}

/**
 * V8's own full collection, as `node --expose-gc` gives it, taken the way jest-leak-detector
 * does: the flag set for one new context, whose `gc` is kept, then unset again. Only on Node 24+:
 * Node 20's V8 has no `last-resort` flavor, and its plain collection gives no memory back to the
 * system (measured: heap 209 -> 37 MB, resident memory 260 -> 260 MiB).
 */
export function lastResortCollector(): (() => void) | undefined {
  if (!givesMemoryBack()) return undefined;
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  if (!isCollector(gc)) return undefined;
  return () => {
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  };
}

/**
 * Gives memory back to the system once a burst of load is over. V8 keeps what a burst made it
 * take (about 170 MiB after `npm run bench`'s workloads, against 86 MiB idle before them) and
 * would give it back itself only through its memory reducer, which never acts in an idle Node
 * server: it waits for a low allocation rate that V8 measures only at a collection, and an idle
 * server makes none. A mock stands idle between test runs most of its life. Samples the event
 * loop once a second, on a timer that keeps no process alive; returns what stops it.
 */
export function releaseMemoryWhenIdle(onRelease: (release: Release) => void): () => void {
  if (!givesMemoryBack()) return () => undefined;
  // Made at the first release, not at the start: a new context costs a few milliseconds.
  let collector: (() => void) | undefined;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const release = new IdleRelease({
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      return utilization;
    },
    rss: () => process.memoryUsage.rss(),
    collect: () => {
      collector ??= lastResortCollector();
      collector?.();
    },
  });
  const timer = setInterval(() => {
    const made = release.sample();
    if (made) onRelease(made);
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
