/** A counted key, as `TopCounts` reports it. */
export interface Counted {
  readonly key: string;
  readonly count: number;
}

interface Entry {
  /** Space-Saving's estimate of its count: never below the true count. */
  estimate: number;
  /** What the estimate took over from the entry it replaced: never above the true count. */
  readonly inherited: number;
}

/**
 * Counts keys in at most `capacity` entries, keeping the most frequent (the Space-Saving
 * algorithm): once full, a new key replaces the entry with the lowest estimate and takes it over
 * plus one, so any key seen more often than total/capacity times stays. Counts reported are exact
 * while fewer than `capacity` keys were seen; past that, a key's count is what was seen since it
 * was last taken in, never more than it really had.
 */
export class TopCounts {
  readonly #capacity: number;
  readonly #entries = new Map<string, Entry>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) {
      entry.estimate += 1;
      return;
    }
    if (this.#capacity <= 0) return;
    let inherited = 0;
    if (this.#entries.size >= this.#capacity) {
      // A linear scan: the capacity is small, and only a new key past it gets here.
      let leastKey: string | undefined;
      let least = Number.POSITIVE_INFINITY;
      for (const [k, e] of this.#entries) {
        if (e.estimate < least) {
          least = e.estimate;
          leastKey = k;
        }
      }
      if (leastKey !== undefined) this.#entries.delete(leastKey);
      inherited = least;
    }
    this.#entries.set(key, { estimate: inherited + 1, inherited });
  }

  /** A key counted elsewhere `count` times, taken in as counted (while there is room). */
  addCount(key: string, count: number): void {
    const entry = this.#entries.get(key);
    if (entry) entry.estimate += count;
    else if (this.#entries.size < this.#capacity)
      this.#entries.set(key, { estimate: count, inherited: 0 });
  }

  /** The keys, most counted first. */
  list(): Counted[] {
    return [...this.#entries]
      .map(([key, { estimate, inherited }]) => ({ key, count: estimate - inherited }))
      .sort((a, b) => b.count - a.count);
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}
