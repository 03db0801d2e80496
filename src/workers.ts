/**
 * petstore-mock/workers: one mock for a whole test run, started in the runner's global setup, and
 * each parallel worker in a session of its own (X-Mock-Session), so workers never see each other's
 * pets, scenarios or resets.
 */
import type { JournalEntry } from './state/request-journal.js';
import type { MockServer, MockServerOptions } from './index.js';

/** The variables that carry the shared mock's addresses from the global setup to the workers. */
export const MOCK_ENV = {
  url: 'PETSTORE_MOCK_URL',
  adminUrl: 'PETSTORE_MOCK_ADMIN_URL',
  adminToken: 'PETSTORE_MOCK_ADMIN_TOKEN',
} as const;

/** The shared mock as one worker sees it: its own session, driven over the admin API. */
export interface MockClient {
  /** The pet API's base URL, e.g. `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** The server's origin, e.g. `http://127.0.0.1:54321`. */
  readonly origin: string;
  /** This worker's X-Mock-Session value. */
  readonly session: string;
  /** Put these on every request to the mock: `{ 'X-Mock-Session': session }`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The session's initial data, start-up scenario and empty journal again. */
  reset(): Promise<void>;
  /** Switches a scenario on for this session, for the next `times` matching requests if given. */
  useScenario(name: string, options?: { times?: number }): Promise<void>;
  clearScenario(): Promise<void>;
  /** This session's journal, newest first. */
  requests(options?: { limit?: number }): Promise<JournalEntry[]>;
}

/** What connectMock needs; each defaults to the variables startSharedMock set. */
export interface ConnectOptions {
  url?: string;
  adminUrl?: string;
  adminToken?: string;
  /** Default: workerSession(). */
  session?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the one mock of a test run (call it in the global setup) and publishes its addresses in
 * PETSTORE_MOCK_URL and PETSTORE_MOCK_ADMIN_URL, which the workers started afterwards inherit.
 */
export async function startSharedMock(options: MockServerOptions = {}): Promise<MockServer> {
  // The server's modules load where the mock runs, not in every worker that only connects.
  const { startMockServer } = await import('./index.js');
  const mock = await startMockServer(options);
  process.env[MOCK_ENV.url] = mock.url;
  process.env[MOCK_ENV.adminUrl] = mock.adminUrl;
  if (options.adminToken !== undefined) process.env[MOCK_ENV.adminToken] = options.adminToken;
  return mock;
}

/**
 * This worker's session id, from the runner's worker number: `jest-<JEST_WORKER_ID>`,
 * `vitest-<VITEST_POOL_ID>`, `playwright-<TEST_PARALLEL_INDEX>`, else `pid-<process id>` (node:test
 * runs each file in a process of its own).
 */
export function workerSession(env: NodeJS.ProcessEnv = process.env): string {
  const runners: [prefix: string, variable: string][] = [
    ['vitest', 'VITEST_POOL_ID'],
    ['jest', 'JEST_WORKER_ID'],
    ['playwright', 'TEST_PARALLEL_INDEX'],
  ];
  for (const [prefix, variable] of runners) {
    const id = env[variable];
    if (id !== undefined && id !== '') return `${prefix}-${id}`;
  }
  return `pid-${String(process.pid)}`;
}

function required(value: string | undefined, variable: string): string {
  if (value === undefined || value === '') {
    throw new Error(
      `petstore-mock: ${variable} is not set: call startSharedMock() in the global setup, or pass the address to connectMock()`,
    );
  }
  return value;
}

/** The shared mock, seen from this worker: every call carries the worker's X-Mock-Session. */
export function connectMock(options: ConnectOptions = {}): MockClient {
  const env = options.env ?? process.env;
  const url = required(options.url ?? env[MOCK_ENV.url], MOCK_ENV.url);
  const adminUrl = required(options.adminUrl ?? env[MOCK_ENV.adminUrl], MOCK_ENV.adminUrl);
  const adminToken = options.adminToken ?? env[MOCK_ENV.adminToken];
  const session = options.session ?? workerSession(env);
  const headers = { 'X-Mock-Session': session };
  const adminHeaders: Record<string, string> = {
    ...headers,
    ...(adminToken ? { Authorization: `Bearer ${adminToken}` } : {}),
  };

  async function admin(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`${adminUrl}${path}`, {
      method,
      headers:
        body === undefined ? adminHeaders : { ...adminHeaders, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!res.ok) {
      throw new Error(
        `petstore-mock: ${method} ${path} answered ${String(res.status)}: ${await res.text()}`,
      );
    }
    return res;
  }

  return {
    url,
    origin: new URL(url).origin,
    session,
    headers,
    reset: async () => {
      await admin('POST', '/reset');
    },
    useScenario: async (name, { times } = {}) => {
      await admin('PUT', '/scenario', times === undefined ? { name } : { name, times });
    },
    clearScenario: async () => {
      await admin('DELETE', '/scenario');
    },
    requests: async ({ limit = 50 } = {}) => {
      const res = await admin('GET', `/requests?limit=${String(limit)}`);
      const { requests } = (await res.json()) as { requests: JournalEntry[] };
      return requests;
    },
  };
}
