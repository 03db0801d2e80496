import { detached, truncate } from '../util/quote-text.js';
import { TopCounts } from './top-counts.js';

/** How one pet API request ended, as coverage counts it. */
export type CoveredAnswer =
  | {
      readonly kind: 'operation';
      readonly operationId: string;
      /** null when no answer was sent: a network fault, or the client left first. */
      readonly status: number | null;
      /** Whether Prefer, X-Mock-Scenario or an active scenario shaped the answer. */
      readonly forced: boolean;
      /** Proxy mode: whether the real service's answer broke the contract. */
      readonly brokeContract: boolean;
    }
  | {
      /** Its method and path named no operation of the contract (404, 405). */
      readonly kind: 'unmatched';
      readonly method: string;
      readonly path: string;
    };

/** Answers of one status of one operation. */
export interface StatusCount {
  /** Every answer with this status, forced ones included. */
  count: number;
  forced: number;
  /** Of those, the answers that broke the contract (proxy mode: the real service's). */
  violations: number;
}

/** A method and path that matched no operation, as kept. */
export interface UnmatchedRequest {
  readonly method: string;
  readonly path: string;
}

/**
 * The bounds of a tally, whatever clients send. Statuses are the mock's own answers (at most the
 * 500 HTTP statuses per operation, a handful in practice) and operations are the contract's; only
 * requests that match no operation carry text of the client's choosing, so those are bounded here.
 */
export const COVERAGE_LIMITS = {
  /** Distinct method + path pairs kept of requests that matched no operation. */
  unmatched: 100,
  /** Characters kept of such a path (longer ones are cut and end with `…`). */
  path: 120,
  /** Characters kept of such a method (Node's parser knows only the standard ones). */
  method: 16,
} as const;

interface OperationCounts {
  readonly statuses: Map<number, StatusCount>;
  noAnswer: number;
}

/**
 * What the pet API answered, counted: per operation and status (with how many were forced and how
 * many broke the contract), the requests of each operation that got no answer, and the most
 * frequent requests that matched no operation. Its size is bounded by COVERAGE_LIMITS.
 */
export class CoverageTally {
  readonly #operations = new Map<string, OperationCounts>();
  /** Keyed `METHOD path`: a method has no space (Node's parser only knows the standard ones). */
  readonly #unmatched = new TopCounts(COVERAGE_LIMITS.unmatched);

  record(answer: CoveredAnswer): void {
    if (answer.kind === 'unmatched') {
      const method = truncate(answer.method, COVERAGE_LIMITS.method);
      const path = truncate(answer.path, COVERAGE_LIMITS.path);
      this.#unmatched.add(detached(`${method} ${path}`));
      return;
    }
    const counts = this.#countsOf(answer.operationId);
    if (answer.status === null) {
      counts.noAnswer += 1;
      return;
    }
    let status = counts.statuses.get(answer.status);
    if (!status) {
      status = { count: 0, forced: 0, violations: 0 };
      counts.statuses.set(answer.status, status);
    }
    status.count += 1;
    if (answer.forced) status.forced += 1;
    if (answer.brokeContract) status.violations += 1;
  }

  /** Adds answers counted elsewhere (by the Redis store): one status of one operation. */
  addStatus(operationId: string, status: number, counts: Readonly<StatusCount>): void {
    const statuses = this.#countsOf(operationId).statuses;
    const kept = statuses.get(status) ?? { count: 0, forced: 0, violations: 0 };
    kept.count += counts.count;
    kept.forced += counts.forced;
    kept.violations += counts.violations;
    statuses.set(status, kept);
  }

  /** Adds requests counted elsewhere that got no answer. */
  addNoAnswer(operationId: string, count: number): void {
    this.#countsOf(operationId).noAnswer += count;
  }

  /** Adds a request that matched no operation, counted elsewhere `count` times. */
  addUnmatched(method: string, path: string, count: number): void {
    this.#unmatched.addCount(`${method} ${path}`, count);
  }

  #countsOf(operationId: string): OperationCounts {
    let counts = this.#operations.get(operationId);
    if (!counts) {
      counts = { statuses: new Map(), noAnswer: 0 };
      this.#operations.set(operationId, counts);
    }
    return counts;
  }

  /** The answers of one operation, by status. */
  statusesOf(operationId: string): ReadonlyMap<number, Readonly<StatusCount>> {
    return this.#operations.get(operationId)?.statuses ?? new Map<number, StatusCount>();
  }

  /** How many requests of one operation got no answer. */
  noAnswerOf(operationId: string): number {
    return this.#operations.get(operationId)?.noAnswer ?? 0;
  }

  /** Requests that matched no operation, most frequent first. */
  unmatched(): (UnmatchedRequest & { readonly count: number })[] {
    return this.#unmatched.list().map(({ key, count }) => {
      const space = key.indexOf(' ');
      return { method: key.slice(0, space), path: key.slice(space + 1), count };
    });
  }

  clear(): void {
    this.#operations.clear();
    this.#unmatched.clear();
  }
}
