import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { MAX_DELAY_MS } from '../contract/scenario.js';

/**
 * Growth of the resident memory since the last release (or since the mock started serving) that
 * is worth a release, which stops everything for tens of milliseconds. A burst of load leaves more
 * than this behind (new space at its cap, old space between two collections, V8's pool of free
 * pages); a few requests do not.
 */
export const RELEASE_GROWTH_BYTES = 32 * 1024 * 1024;

/** The loop is sampled this often; idle means at most 2% busy and no request received. */
export const CHECK_INTERVAL_MS = 1000;
const IDLE_UTILIZATION = 0.02;
/**
 * How long the mock must have stood idle. A release costs the next burst of requests: the
 * collection drops what V8 learnt of the running code and shrinks the young generation, so that
 * burst runs slower for its first seconds. A test suite's pauses between its runs are shorter than
 * this; a mock left alone is not (JVM collectors wait minutes before they uncommit memory). Longer
 * than a scenario's longest delay, so that no request is still held for its answer.
 */
export const IDLE_MS = MAX_DELAY_MS + 5000;
const IDLE_CHECKS = IDLE_MS / CHECK_INTERVAL_MS;

/** What the decision reads and does, handed in (the tests give their own). */
export interface MemoryProbe {
  /** Share of the time since the last call that the event loop was busy, 0 to 1. */
  utilization(): number;
  /** Requests received so far (a count that only grows). */
  requestsReceived(): number;
  /** Resident memory in bytes. */
  rss(): number;
  /** A full collection that gives free memory back to the system; throws when it cannot. */
  collect(): void;
}

/** One release: the resident memory before and after it, and how long it took. */
export interface Release {
  readonly beforeBytes: number;
  readonly afterBytes: number;
  readonly ms: number;
}

/**
 * Decides, one sample at a time, when to give memory back: once the mock has stood idle, no
 * request received, for IDLE_MS, and its resident memory has grown by
 * RELEASE_GROWTH_BYTES over the baseline. The baseline is what was resident when the mock started
 * serving, then what the last release left, so memory that stays in use (a large store) is not
 * collected for again and again; it follows the memory down when that shrinks by itself.
 */
export class IdleRelease {
  readonly #probe: MemoryProbe;
  readonly #now: () => number;
  #idleChecks = 0;
  #baseline: number;
  #received: number;

  /** Made once the mock serves: its resident memory then is the first baseline. */
  constructor(probe: MemoryProbe, now: () => number = () => performance.now()) {
    this.#probe = probe;
    this.#now = now;
    this.#baseline = probe.rss();
    this.#received = probe.requestsReceived();
  }

  /** Takes one sample; returns the release made, if any. */
  sample(): Release | undefined {
    // Both read at every sample: each is measured since the previous one.
    const busy = this.#probe.utilization() > IDLE_UTILIZATION;
    const received = this.#probe.requestsReceived();
    const quiet = received === this.#received;
    this.#received = received;
    if (busy || !quiet) {
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

const MIB = 1024 * 1024;

/** A release as the log shows it: MiB and ms, rounded. */
export function releaseLogFields({ beforeBytes, afterBytes, ms }: Release): Record<string, number> {
  return {
    rssBeforeMiB: Math.round(beforeBytes / MIB),
    rssAfterMiB: Math.round(afterBytes / MIB),
    ms: Math.round(ms),
  };
}

/** V8's `gc` extension, with the options this module uses. */
type Collector = (options: {
  type: 'major';
  execution: 'sync';
  /** `last-resort`: collects until nothing more is freed, and frees V8's pooled pages. */
  flavor: 'last-resort';
}) => void;

function isCollector(value: unknown): value is Collector {
  return typeof value === 'function';
}

/**
 * Node 24+. Node 20's V8 has no `last-resort` flavor, and its plain full collection gives the
 * freed memory back to the heap but not to the system (measured in the commit that added this).
 * Node 22 was not measured.
 */
export function hasLastResortFlavor(): boolean {
  return Number(process.versions.node.split('.')[0]) >= 24;
}

/**
 * V8's own full collection, as `node --expose-gc` gives it: the global `gc` when the user ran
 * Node with that flag; otherwise the flag is set for one new context, whose `gc` is kept, and
 * unset again (as jest-leak-detector does), so no other code sees a `gc` it did not ask for.
 * Throws when V8 gives none.
 */
export function createLastResortCollector(): () => void {
  const exposed: unknown = Reflect.get(globalThis, 'gc');
  const gc = isCollector(exposed) ? exposed : collectorOfNewContext();
  return () => {
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  };
}

function collectorOfNewContext(): Collector {
  const { runInNewContext } = process.getBuiltinModule('node:vm');
  let gc: unknown;
  setFlagsFromString('--expose-gc');
  try {
    gc = runInNewContext('typeof gc === "function" ? gc : undefined');
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  if (!isCollector(gc)) throw new Error('V8 gave no gc function with --expose-gc');
  return gc;
}

/** What releaseMemoryWhenIdle reads and tells. */
export interface IdleReleaseOptions {
  /** Requests received so far, from the HTTP server. */
  requestsReceived: () => number;
  onRelease: (release: Release) => void;
  /** The release failed (V8 gave no collector): no further one is tried. */
  onError: (error: unknown) => void;
}

/**
 * Gives memory back to the system once a burst of load is over (Node 24+). V8 keeps what a burst
 * made it take, and would give it back itself only through its memory reducer, which on Node 24
 * never acts in an idle server: it waits for a low allocation rate, which V8 measures only at a
 * collection, and an idle server makes none. A mock stands idle between test runs most of its
 * life. Samples the event loop once a second, on a timer that keeps no process alive; returns
 * what stops it.
 */
export function releaseMemoryWhenIdle({
  requestsReceived,
  onRelease,
  onError,
}: IdleReleaseOptions): () => void {
  if (!hasLastResortFlavor()) return () => undefined;
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
    requestsReceived,
    rss: () => process.memoryUsage.rss(),
    collect: () => {
      collector ??= createLastResortCollector();
      collector();
    },
  });
  const timer = setInterval(() => {
    try {
      const made = release.sample();
      if (made) onRelease(made);
    } catch (error) {
      clearInterval(timer);
      onError(error);
    }
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
