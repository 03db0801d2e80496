// Giving memory back once a burst of load is over (issue 10: RSS after load): when the mock
// releases, and that the collector it uses does give memory back on Node 24.
import { getHeapStatistics } from 'node:v8';
import {
  IdleRelease,
  RELEASE_GROWTH_BYTES,
  lastResortCollector,
  type MemoryProbe,
} from '../../src/idle-memory.js';

const MIB = 1024 * 1024;

/** A probe that plays back loop utilizations and resident sizes, and counts collections. */
function scriptedProbe(start: number): MemoryProbe & {
  busy: number;
  resident: number;
  afterCollect: number;
  collections: number;
} {
  const probe = {
    busy: 0,
    resident: start,
    afterCollect: start,
    collections: 0,
    utilization: () => probe.busy,
    rss: () => probe.resident,
    collect: () => {
      probe.collections += 1;
      probe.resident = probe.afterCollect;
    },
  };
  return probe;
}

describe('IdleRelease', () => {
  it('releases on the second idle sample after a burst that grew memory past the threshold', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe, () => 0);
    probe.busy = 0.9;
    probe.resident = 180 * MIB;
    expect(release.sample()).toBeUndefined();
    probe.busy = 0.001;
    probe.afterCollect = 95 * MIB;
    expect(release.sample()).toBeUndefined();
    expect(probe.collections).toBe(0);
    expect(release.sample()).toEqual({ beforeBytes: 180 * MIB, afterBytes: 95 * MIB, ms: 0 });
    expect(probe.collections).toBe(1);
    // Still idle, nothing grew since: no second collection.
    expect(release.sample()).toBeUndefined();
    expect(probe.collections).toBe(1);
  });

  it('never releases while the loop is busy, however large the memory', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 1024 * MIB;
    probe.busy = 0.5;
    for (let i = 0; i < 10; i += 1) expect(release.sample()).toBeUndefined();
    expect(probe.collections).toBe(0);
  });

  it('a busy sample between idle ones starts the count again', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 200 * MIB;
    for (const busy of [0, 0.3, 0, 0.3, 0]) {
      probe.busy = busy;
      expect(release.sample()).toBeUndefined();
    }
    probe.busy = 0;
    expect(release.sample()).toBeDefined();
  });

  it('does not release for growth under the threshold', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 86 * MIB + RELEASE_GROWTH_BYTES - 1;
    for (let i = 0; i < 5; i += 1) expect(release.sample()).toBeUndefined();
    probe.resident += 1;
    expect(release.sample()).toBeDefined();
  });

  it('measures growth from what the last release left, not from the start', () => {
    const probe = scriptedProbe(86 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 300 * MIB;
    probe.afterCollect = 250 * MIB; // a large store stays in use
    release.sample();
    expect(release.sample()).toBeDefined();
    probe.resident = 270 * MIB; // +20 MiB over what was left
    for (let i = 0; i < 3; i += 1) expect(release.sample()).toBeUndefined();
    expect(probe.collections).toBe(1);
  });

  it('follows the memory down when it shrinks by itself', () => {
    const probe = scriptedProbe(150 * MIB);
    const release = new IdleRelease(probe);
    probe.resident = 100 * MIB;
    release.sample();
    release.sample(); // baseline now 100 MiB
    probe.resident = 100 * MIB + RELEASE_GROWTH_BYTES;
    expect(release.sample()).toBeDefined();
  });
});

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe('lastResortCollector', () => {
  (NODE_MAJOR >= 24 ? it : it.skip)(
    'on Node 24+, collects garbage and shrinks the heap, leaving no global gc behind',
    () => {
      const collect = lastResortCollector();
      expect(collect).toBeDefined();
      let garbage: { n: number; s: string }[] | undefined = [];
      for (let i = 0; i < 500_000; i += 1) garbage.push({ n: i, s: `pet ${i}` });
      expect(garbage.length).toBe(500_000);
      garbage = undefined;
      const before = getHeapStatistics().total_heap_size;
      collect?.();
      expect(getHeapStatistics().total_heap_size).toBeLessThan(before - 16 * MIB);
      expect('gc' in globalThis).toBe(false);
    },
  );

  (NODE_MAJOR < 24 ? it : it.skip)('on Node before 24, offers none (nothing is given back)', () => {
    expect(lastResortCollector()).toBeUndefined();
  });
});
