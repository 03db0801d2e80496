import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The young generation's ceiling (both semi-spaces), as `--max-semi-space-size=16` would set it:
 * as many requests per second as V8's own ceiling (eight times larger), at a third of its memory.
 */
const NEW_SPACE_CAP_BYTES = 32 * 1024 * 1024;

/** V8 options that size the young generation: when the user gives one, theirs is kept. */
const YOUNG_GENERATION_OPTIONS =
  /--(?:max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/;

function sizedByUser(): boolean {
  return YOUNG_GENERATION_OPTIONS.test(
    [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '),
  );
}

function setGrowthFactor(factor: 1 | 2): void {
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

function newSpaceBytes(): number {
  return (
    getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  );
}

/**
 * Keeps V8's young generation at its first size while the server starts: loading modules and
 * compiling the contract would grow it, and an idle mock would keep that memory.
 */
export function holdYoungGeneration(): void {
  if (!sizedByUser()) setGrowthFactor(1);
}

/**
 * From now on, lets the young generation grow up to NEW_SPACE_CAP_BYTES and no further. Most
 * requests leave something that outlives a scavenge (a journal entry, a pet), so under load V8
 * would grow it to its own ceiling, and the resident memory with it. The growth factor is the one
 * young generation setting V8 still reads once it has started: it is switched after each GC.
 */
export function capYoungGeneration(): void {
  if (sizedByUser()) return;
  let growing: boolean | undefined;
  const steer = (): void => {
    const grow = newSpaceBytes() < NEW_SPACE_CAP_BYTES;
    if (grow === growing) return;
    growing = grow;
    setGrowthFactor(grow ? 2 : 1);
  };
  new PerformanceObserver(steer).observe({ entryTypes: ['gc'] });
  steer();
}
