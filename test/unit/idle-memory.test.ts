// Giving memory back once a burst of load is over (issue 10: RSS after load): when the mock
// releases, and that the collector it uses gives memory back to the system on Node 24.
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  CHECK_INTERVAL_MS,
  IDLE_MS,
  IdleRelease,
  RELEASE_GROWTH_BYTES,
  createLastResortCollector,
  hasLastResortFlavor,
  releaseLogFields,
  releaseMemoryWhenIdle,
  type MemoryProbe,
} from '../../src/cli/idle-memory.js';
import { MAX_DELAY_MS } from '../../src/contract/scenario.js';

const MIB = 1024 * 1024;
/** Samples an idle mock takes before it may release. */
const CHECKS = IDLE_MS / CHECK_INTERVAL_MS;

/** Takes `count` samples, none of which may release. */
function sampleWithoutRelease(release: IdleRelease, count: number): void {
  for (let i = 0; i < count; i += 1) expect(release.sample()).toBeUndefined();
}

/** A probe that plays back loop utilizations, requests received and resident sizes. */
function scriptedProbe(start: number): MemoryProbe & {
  busy: number;
  received: number;
  resident: number;
  afterCollect: number;
  collections: number;
} {
  const probe = {
    busy: 0,
    received: 0,
    resident: start,
    afterCollect: start,
    collections: 0,
    utilization: () => probe.busy,
    requestsReceived: () => probe.received,
    rss: () => probe.resident,
    collect: () => {
      probe.collections += 1;
      probe.resident = probe.afterCollect;
    },
  };
  return probe;
}

describe('IdleRelease', () => {
  it('releases once it has stood idle for IDLE_MS after a burst that grew memory past the threshold', () => {
    expect(CHECKS).toBeGreaterThan(1);
    const probe = scriptedProbe(86 * MIB);
    let clock = 0;
    const release = new IdleRelease(probe, () => (clock += 40));
    probe.busy = 0.9;
    probe.resident = 180 * MIB;
    expect(release.sample()).toBeUndefined();
    probe.busy = 0.001;
    probe.afterCollect = 95 * MIB;
    sampleWithoutRelease(release, CHECKS - 1);
    expect(probe.collections).toBe(0);
    expect(release.sample()).toEqual({ beforeBytes: 180 * MIB, afterBytes: 95 * MIB, ms: 40 });
    expect(probe.collections).toBe(1);
    // Still idle, nothing grew since: no second collection.
    sampleWithoutRelease(release, 2 * CHECKS);
    expect(probe.collections).toBe(1);
  });

  it('never releases while the loop is busy, however large the memory', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 1024 * MIB;
    probe.busy = 0.5;
    sampleWithoutRelease(release, 2 * CHECKS);
    expect(probe.collections).toBe(0);
  });

  it('never releases while requests come, however few and however idle the loop', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 1024 * MIB;
    for (let i = 0; i < 2 * CHECKS; i += 1) {
      probe.received += 1;
      expect(release.sample()).toBeUndefined();
    }
    expect(probe.collections).toBe(0);
    // The last one is followed by IDLE_MS without any: longer than a scenario's longest delay.
    expect(IDLE_MS).toBeGreaterThan(MAX_DELAY_MS);
    sampleWithoutRelease(release, CHECKS - 1);
    expect(release.sample()).toBeDefined();
  });

  it('a busy sample between idle ones starts the count again', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 200 * MIB;
    sampleWithoutRelease(release, CHECKS - 1);
    probe.busy = 0.3;
    expect(release.sample()).toBeUndefined();
    probe.busy = 0;
    sampleWithoutRelease(release, CHECKS - 1);
    expect(release.sample()).toBeDefined();
  });

  it('does not release for growth under the threshold', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 86 * MIB + RELEASE_GROWTH_BYTES - 1;
    sampleWithoutRelease(release, 2 * CHECKS);
    probe.resident += 1;
    expect(release.sample()).toBeDefined();
  });

  it('measures growth from what the last release left, not from the start', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 300 * MIB;
    probe.afterCollect = 250 * MIB; // a large store stays in use
    sampleWithoutRelease(release, CHECKS - 1);
    expect(release.sample()).toBeDefined();
    probe.resident = 270 * MIB; // +20 MiB over what was left
    sampleWithoutRelease(release, 2 * CHECKS);
    expect(probe.collections).toBe(1);
  });

  it('does not collect again after a release that freed nothing', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 200 * MIB;
    probe.afterCollect = 200 * MIB;
    sampleWithoutRelease(release, CHECKS - 1);
    expect(release.sample()).toEqual(expect.objectContaining({ afterBytes: 200 * MIB }));
    sampleWithoutRelease(release, 2 * CHECKS);
    expect(probe.collections).toBe(1);
  });

  it('follows the memory down when it shrinks by itself', () => {
    const probe = scriptedProbe(150 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 100 * MIB;
    sampleWithoutRelease(release, CHECKS); // baseline now 100 MiB
    probe.resident = 100 * MIB + RELEASE_GROWTH_BYTES;
    expect(release.sample()).toBeDefined();
  });

  it('lets an error of the collection through, to stop the sampling', () => {
    const probe = scriptedProbe(86 * MIB);
    probe.collect = () => {
      throw new Error('no gc');
    };
    const release = new IdleRelease(probe);
    probe.resident = 200 * MIB;
    sampleWithoutRelease(release, CHECKS - 1);
    expect(() => release.sample()).toThrow('no gc');
  });
});

describe('releaseLogFields', () => {
  it('gives MiB and ms, rounded', () => {
    expect(
      releaseLogFields({ beforeBytes: 172.4 * MIB, afterBytes: 92.6 * MIB, ms: 76.68 }),
    ).toEqual({ rssBeforeMiB: 172, rssAfterMiB: 93, ms: 77 });
  });
});

describe('hasLastResortFlavor', () => {
  it('holds from Node 24 on', () => {
    expect(hasLastResortFlavor()).toBe(Number(process.versions.node.split('.')[0]) >= 24);
  });
});

describe('createLastResortCollector', () => {
  it('leaves no gc behind, in this context or in a new one', () => {
    expect(createLastResortCollector()).toBeInstanceOf(Function);
    expect(Reflect.get(globalThis, 'gc')).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  // Node 20's plain collection frees the heap but keeps the pages: the mock does not use it there.
  (hasLastResortFlavor() ? it : it.skip)(
    'on Node 24+, gives what garbage took back to the system, not only to the heap',
    () => {
      const collect = createLastResortCollector();
      collect(); // from a settled start
      const start = process.memoryUsage.rss();
      let garbage: { n: number; s: string }[] | undefined = [];
      for (let i = 0; i < 1_000_000; i += 1) garbage.push({ n: i, s: `pet ${i}` });
      expect(garbage.length).toBe(1_000_000);
      garbage = undefined;
      const grown = process.memoryUsage.rss() - start;
      expect(grown).toBeGreaterThan(32 * MIB);
      const heapBefore = getHeapStatistics().total_heap_size;
      collect();
      expect(getHeapStatistics().total_heap_size).toBeLessThan(heapBefore - 16 * MIB);
      // A plain full collection leaves most of it resident (V8 pools the freed pages).
      expect(process.memoryUsage.rss() - start).toBeLessThan(grown / 2);
    },
  );
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('releaseMemoryWhenIdle', () => {
  it('samples once a second on Node 24+ only, until stopped', async () => {
    let reads = 0;
    const stop = releaseMemoryWhenIdle({
      requestsReceived: () => (reads += 1),
      onRelease: () => undefined,
      onError: () => undefined,
    });
    // One read when it starts, one a sample.
    const started = hasLastResortFlavor() ? 1 : 0;
    expect(reads).toBe(started);
    await sleep(CHECK_INTERVAL_MS + 100);
    expect(reads).toBe(2 * started);
    stop();
    await sleep(CHECK_INTERVAL_MS + 100);
    expect(reads).toBe(2 * started);
  });
});
