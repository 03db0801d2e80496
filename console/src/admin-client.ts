/** The admin API as the console reads it: typed answers, the token and the session on every call. */
import type { JournalEntry } from '../../src/state/request-journal.js';
import { isRecord } from '../../src/util/is-record.js';

export type { JournalEntry };

export interface ActiveScenario {
  readonly name: string;
  /** Matching requests left; null for until switched off. */
  readonly remaining: number | null;
}

export interface ScenarioSummary {
  readonly name: string;
  readonly description: string;
  readonly operations: readonly string[];
  /** It applies to every operation of the contract. */
  readonly everyOperation: boolean;
}

export interface ScenarioList {
  readonly scenarios: readonly ScenarioSummary[];
  readonly active: ActiveScenario | null;
}

export interface SessionSummary {
  /** null for the default session. */
  readonly id: string | null;
  readonly active: ActiveScenario | null;
}

export interface StatusCoverage {
  readonly documented: boolean;
  readonly count: number;
  readonly forced: number;
}

export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly statuses: ReadonlyMap<string, StatusCoverage>;
}

/** An example of the contract that breaks its own schema. */
export interface BrokenExample {
  readonly operation: string;
  readonly status: number;
  readonly mediaType: string;
  readonly problem: string;
}

export interface CoverageReport {
  readonly summary: {
    readonly documented: number;
    readonly covered: number;
    readonly percent: number;
  };
  readonly operations: readonly OperationCoverage[];
  readonly brokenExamples: readonly BrokenExample[];
}

/** The last reload, as GET /__admin/health reports it (undefined before any). */
export interface ReloadStatus {
  readonly status: 'ok' | 'failed';
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly message: string | undefined;
  readonly at: string;
}

/** A resource the mock keeps items of, as GET /__admin/resources shows it. */
export interface ResourceSummary {
  readonly name: string;
  readonly collectionPath: string;
  readonly itemPath: string | null;
  /** The resource whose items this one's sit under; null for a top-level one. */
  readonly parent: string | null;
  readonly key: {
    readonly property: string;
    readonly kind: string;
    readonly format: string | null;
    /** never, optional or required: whether a create's body carries the key. */
    readonly fromClient: string;
  };
  readonly operations: readonly {
    readonly role: string;
    readonly operation: string;
    /** The query parameters a list filters by. */
    readonly filters: readonly string[];
  }[];
  readonly hints: readonly string[];
  /** Items the session holds; null for a nested resource (they are counted per parent). */
  readonly items: number | null;
}

/** An operation answered from the contract, and why no resource claims it. */
export interface StatelessOperation {
  readonly operation: string;
  readonly reason: string;
}

export interface ResourceList {
  readonly resources: readonly ResourceSummary[];
  readonly stateless: readonly StatelessOperation[];
}

/** The admin API answered 401: the console asks for the admin token. */
export class AdminTokenNeeded extends Error {
  override name = 'AdminTokenNeeded';
}

/** The admin API refused a call (other than 401), with its Error body's message. */
export class AdminCallFailed extends Error {
  override name = 'AdminCallFailed';
}

/** An answer that is not what admin-openapi.yaml describes. */
class UnexpectedAnswer extends Error {
  override name = 'UnexpectedAnswer';
}

type Json = Record<string, unknown>;

function recordOf(value: unknown, what: string): Json {
  if (!isRecord(value)) throw new UnexpectedAnswer(`${what} is not an object`);
  return value;
}

function listOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new UnexpectedAnswer(`${what} is not a list`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new UnexpectedAnswer(`${what} is not a string`);
  return value;
}

function yesNo(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw new UnexpectedAnswer(`${what} is not true or false`);
  return value;
}

function textOrNull(value: unknown, what: string): string | null {
  return value === null ? null : text(value, what);
}

function count(value: unknown, what: string): number {
  if (typeof value !== 'number') throw new UnexpectedAnswer(`${what} is not a number`);
  return value;
}

function activeOf(value: unknown): ActiveScenario | null {
  if (value === null) return null;
  const active = recordOf(value, 'active');
  return {
    name: text(active.name, 'active.name'),
    remaining: active.remaining === null ? null : count(active.remaining, 'active.remaining'),
  };
}

function scenarioListOf(value: unknown): ScenarioList {
  const body = recordOf(value, 'the scenario list');
  return {
    scenarios: listOf(body.scenarios, 'scenarios').map((item) => {
      const scenario = recordOf(item, 'a scenario');
      return {
        name: text(scenario.name, 'name'),
        description: text(scenario.description, 'description'),
        operations: listOf(scenario.operations, 'operations').map((op) => text(op, 'operation')),
        everyOperation: yesNo(scenario.everyOperation, 'everyOperation'),
      };
    }),
    active: activeOf(body.active),
  };
}

function sessionListOf(value: unknown): SessionSummary[] {
  return listOf(recordOf(value, 'the session list').sessions, 'sessions').map((item) => {
    const session = recordOf(item, 'a session');
    return { id: textOrNull(session.id, 'id'), active: activeOf(session.active) };
  });
}

function journalOf(value: unknown): JournalEntry[] {
  return listOf(recordOf(value, 'the journal').requests, 'requests').map((item) => {
    const entry = recordOf(item, 'a journal entry');
    return {
      time: text(entry.time, 'time'),
      requestId: text(entry.requestId, 'requestId'),
      method: text(entry.method, 'method'),
      path: text(entry.path, 'path'),
      query: text(entry.query, 'query'),
      operationId: textOrNull(entry.operationId, 'operationId'),
      status: entry.status === null ? null : count(entry.status, 'status'),
      scenario: textOrNull(entry.scenario, 'scenario'),
      validationErrors: listOf(entry.validationErrors, 'validationErrors').map((error) =>
        text(error, 'a validation error'),
      ),
    };
  });
}

function optional<T>(value: unknown, read: (value: unknown, what: string) => T, what: string) {
  return value === undefined ? undefined : read(value, what);
}

function reloadOf(value: unknown): ReloadStatus | undefined {
  const reload = recordOf(value, 'health').reload;
  if (reload === undefined) return undefined;
  const body = recordOf(reload, 'reload');
  return {
    status: body.status === 'failed' ? 'failed' : 'ok',
    file: optional(body.file, text, 'reload.file'),
    line: optional(body.line, count, 'reload.line'),
    column: optional(body.column, count, 'reload.column'),
    message: optional(body.message, text, 'reload.message'),
    at: text(body.at, 'reload.at'),
  };
}

function coverageOf(value: unknown): CoverageReport {
  const body = recordOf(value, 'the coverage report');
  const summary = recordOf(body.summary, 'summary');
  return {
    summary: {
      documented: count(summary.documented, 'documented'),
      covered: count(summary.covered, 'covered'),
      percent: count(summary.percent, 'percent'),
    },
    operations: listOf(body.operations, 'operations').map((item) => {
      const op = recordOf(item, 'an operation');
      const statuses = Object.entries(recordOf(op.statuses, 'statuses')).map(
        ([status, answers]): [string, StatusCoverage] => {
          const counts = recordOf(answers, `status ${status}`);
          return [
            status,
            {
              documented: counts.documented === true,
              count: count(counts.count, 'count'),
              forced: count(counts.forced, 'forced'),
            },
          ];
        },
      );
      return {
        operationId: text(op.operationId, 'operationId'),
        method: text(op.method, 'method'),
        path: text(op.path, 'path'),
        statuses: new Map(statuses),
      };
    }),
    brokenExamples: listOf(body.brokenExamples ?? [], 'brokenExamples').map((item) => {
      const broken = recordOf(item, 'a broken example');
      return {
        operation: text(broken.operation, 'operation'),
        status: count(broken.status, 'status'),
        mediaType: text(broken.mediaType, 'mediaType'),
        problem: text(broken.problem, 'problem'),
      };
    }),
  };
}

function resourceOf(value: unknown): ResourceSummary {
  const resource = recordOf(value, 'a resource');
  const key = recordOf(resource.key, 'key');
  return {
    name: text(resource.name, 'name'),
    collectionPath: text(resource.collectionPath, 'collectionPath'),
    itemPath: textOrNull(resource.itemPath, 'itemPath'),
    parent:
      resource.parent === null
        ? null
        : text(recordOf(resource.parent, 'parent').resource, 'parent.resource'),
    key: {
      property: text(key.property, 'key.property'),
      kind: text(key.kind, 'key.kind'),
      format: textOrNull(key.format, 'key.format'),
      fromClient: text(key.fromClient, 'key.fromClient'),
    },
    operations: listOf(resource.operations, 'operations').map((item) => {
      const op = recordOf(item, 'an operation');
      return {
        role: text(op.role, 'role'),
        operation: text(op.operation, 'operation'),
        filters: listOf(op.filters ?? [], 'filters').map((filter) =>
          text(recordOf(filter, 'a filter').parameter, 'filter.parameter'),
        ),
      };
    }),
    hints: listOf(resource.hints, 'hints').map((hint) => text(hint, 'a hint')),
    items: resource.items === null ? null : count(resource.items, 'items'),
  };
}

function resourceListOf(value: unknown): ResourceList {
  const body = recordOf(value, 'the resource list');
  return {
    resources: listOf(body.resources, 'resources').map(resourceOf),
    stateless: listOf(body.stateless, 'stateless').map((item) => {
      const op = recordOf(item, 'a stateless operation');
      return { operation: text(op.operation, 'operation'), reason: text(op.reason, 'reason') };
    }),
  };
}

const TOKEN_KEY = 'petstore-mock.admin-token';

/** The admin token, kept for this tab only: never in a URL, a cookie or localStorage. */
export const adminToken = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string): void => {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  forget: (): void => {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** Calls of the admin API at `base` (ending in /__admin/), in the session `session` names. */
export class AdminClient {
  readonly #base: URL;
  /** The X-Mock-Session every call sends; empty for the default session. */
  session = '';

  constructor(base: URL) {
    this.#base = base;
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers = new Headers();
    const token = adminToken.get();
    if (token !== null) headers.set('Authorization', `Bearer ${token}`);
    if (this.session !== '') headers.set('X-Mock-Session', this.session);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const res = await fetch(new URL(path, this.#base), {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
    if (res.status === 401) throw new AdminTokenNeeded('The admin API asks for its token.');
    if (res.status === 204) return undefined;
    const answer: unknown = await res.json().catch(() => undefined);
    if (!res.ok) {
      const message = isRecord(answer) && typeof answer.message === 'string' ? answer.message : '';
      throw new AdminCallFailed(`${method} ${path}: ${String(res.status)} ${message}`.trim());
    }
    return answer;
  }

  /** The last reload's outcome (health's `reload`); undefined before any. */
  async reloadStatus(): Promise<ReloadStatus | undefined> {
    return reloadOf(await this.#call('GET', 'health'));
  }

  async scenarios(): Promise<ScenarioList> {
    return scenarioListOf(await this.#call('GET', 'scenarios'));
  }

  async sessions(): Promise<SessionSummary[]> {
    return sessionListOf(await this.#call('GET', 'sessions'));
  }

  async requests(limit: number): Promise<JournalEntry[]> {
    return journalOf(await this.#call('GET', `requests?limit=${String(limit)}`));
  }

  async coverage(): Promise<CoverageReport> {
    return coverageOf(await this.#call('GET', 'coverage'));
  }

  async resources(): Promise<ResourceList> {
    return resourceListOf(await this.#call('GET', 'resources'));
  }

  /** The session's items of a top-level resource, in key order. */
  async resourceItems(name: string): Promise<Record<string, unknown>[]> {
    const body = await this.#call('GET', `resources/${encodeURIComponent(name)}/items`);
    return listOf(recordOf(body, 'the items').items, 'items').map((item) =>
      recordOf(item, 'an item'),
    );
  }

  async activate(name: string, times?: number): Promise<void> {
    await this.#call('PUT', 'scenario', times === undefined ? { name } : { name, times });
  }

  async deactivate(): Promise<void> {
    await this.#call('DELETE', 'scenario');
  }

  async reset(): Promise<void> {
    await this.#call('POST', 'reset');
  }
}
