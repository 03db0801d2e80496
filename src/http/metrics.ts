import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MockState, StateKind } from '../state/mock-state.js';
import { StateUnavailableError } from '../state/mock-state.js';

/** What GET /__admin/metrics answers: Prometheus's text format, version 0.0.4. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds: from a fraction of a millisecond (most answers) to scenario delays of seconds. */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Past this many observations waiting for prom-client, it is loaded at once. */
const MAX_PENDING = 1000;

type PromClient = typeof import('prom-client');

/** The app's own registry and what it counts. */
interface Instruments {
  readonly client: PromClient;
  readonly registry: Registry;
  readonly requests: Counter<'operation' | 'status'>;
  readonly latency: Histogram<'operation'>;
  readonly roundTrips: Counter<'backend'>;
  readonly roundTripErrors: Counter<'backend'>;
  readonly sessions: Gauge<'backend'>;
}

type Observation = (instruments: Instruments) => void;

function createInstruments(client: PromClient): Instruments {
  const registry = new client.Registry();
  const registers = [registry];
  return {
    client,
    registry,
    requests: new client.Counter({
      name: 'petstore_mock_requests_total',
      help: "Pet API requests, by operationId ('none': it matched no operation) and status ('none': no answer was sent).",
      labelNames: ['operation', 'status'],
      registers,
    }),
    latency: new client.Histogram({
      name: 'petstore_mock_request_duration_seconds',
      help: "Pet API answers, from the request reaching the pet API to the answer's end, by operationId.",
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    roundTrips: new client.Counter({
      name: 'petstore_mock_state_round_trips_total',
      help: 'Round trips to the state store, by backend: redis makes them; memory and file keep the state in this process and make none.',
      labelNames: ['backend'],
      registers,
    }),
    roundTripErrors: new client.Counter({
      name: 'petstore_mock_state_round_trip_errors_total',
      help: 'Round trips to the state store that failed (unreachable, or slower than --state-timeout), by backend: each failed what made it (a call answered 503 state_unavailable, a health check, a batch of journal records).',
      labelNames: ['backend'],
      registers,
    }),
    sessions: new client.Gauge({
      name: 'petstore_mock_sessions',
      help: 'Live X-Mock-Session sessions, the default one not counted, as the state store has them (on redis: every replica sharing the prefix). Absent while the store cannot be reached.',
      labelNames: ['backend'],
      registers,
    }),
  };
}

/**
 * An app's metrics, in a registry of its own (several mocks may run in one process), for
 * GET /__admin/metrics. prom-client is loaded on the first answer recorded or the first scrape,
 * never at start: importing it would add tens of milliseconds to every start's first answer.
 * Observations made before it is loaded wait for it, in order, and none is lost.
 */
export class MockMetrics {
  #instruments: Instruments | undefined;
  #loading: Promise<Instruments> | undefined;
  #pending: Observation[] = [];
  #defaultMetrics = false;

  /** A pet API request ended: its operation, the status sent (null: none), how long it took. */
  recordAnswer(operation: string | undefined, status: number | null, seconds: number): void {
    const labels = {
      operation: operation ?? 'none',
      status: status === null ? 'none' : String(status),
    };
    this.#observe((m) => {
      m.requests.inc(labels);
      if (status !== null) m.latency.observe({ operation: labels.operation }, seconds);
    });
    // After the answer has gone: the first one no longer waits for the load.
    void this.#load();
  }

  /** One round trip to the state store (RedisState's onRoundTrip), failed or not. */
  countRoundTrip(backend: StateKind, failed: boolean): void {
    this.#observe((m) => {
      m.roundTrips.inc({ backend });
      if (failed) m.roundTripErrors.inc({ backend });
    });
  }

  /**
   * The text to answer a scrape with. The live sessions are read from the state; a store that
   * cannot be reached leaves that gauge out rather than failing the scrape, whose other figures
   * (its errors first) matter most then.
   */
  async text(state: MockState): Promise<string> {
    const m = await this.#load();
    if (!this.#defaultMetrics) {
      this.#defaultMetrics = true;
      // The process's own (CPU, memory, event loop, GC), from the first scrape on.
      m.client.collectDefaultMetrics({ register: m.registry });
    }
    // The state's backend is listed before its first round trip, at 0.
    m.roundTrips.inc({ backend: state.kind }, 0);
    m.roundTripErrors.inc({ backend: state.kind }, 0);
    try {
      m.sessions.set({ backend: state.kind }, (await state.sessions()).length - 1);
    } catch (error) {
      if (!(error instanceof StateUnavailableError)) throw error;
      m.sessions.reset();
    }
    return m.registry.metrics();
  }

  #observe(observation: Observation): void {
    if (this.#instruments) {
      observation(this.#instruments);
      return;
    }
    this.#pending.push(observation);
    if (this.#pending.length >= MAX_PENDING) void this.#load();
  }

  #load(): Promise<Instruments> {
    this.#loading ??= import('prom-client').then((client) => {
      const instruments = createInstruments(client);
      for (const observation of this.#pending) observation(instruments);
      this.#pending = [];
      this.#instruments = instruments;
      return instruments;
    });
    return this.#loading;
  }
}
