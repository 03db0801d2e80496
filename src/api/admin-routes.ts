import express, { Router, type RequestHandler } from 'express';
import type { Operation } from '../contract/operation-index.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import { createLazyContractValidator } from '../http/contract-validator.js';
import {
  COVERAGE_CONTENT_TYPES,
  formatCoverage,
  isCoverageFormat,
} from '../state/coverage-formats.js';
import { reportCoverage } from '../state/coverage-report.js';
import { authenticateAdmin } from '../http/authenticate.js';
import { METRICS_CONTENT_TYPE, type MockMetrics } from '../http/metrics.js';
import { sessionIdOf } from '../http/request-parts.js';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import { ruleFor, scenarioNamed, type Scenario } from '../contract/scenario.js';
import type { BrokenExample } from '../contract/contract-answers.js';
import type { ActiveScenario, MockState } from '../state/mock-state.js';
import { HttpError } from '../http/http-error.js';
import type { MockControl } from './mock-control.js';
import { isRecord } from '../util/is-record.js';
import { listResources, resourceItems, type ServedResources } from './resource-summary.js';

export interface AdminDeps {
  state: MockState;
  /** The server's reload, when there is one (a bare createApp has none). */
  control?: MockControl | undefined;
  scenarios: ReadonlyMap<string, Scenario>;
  /** The pet API's operations, for coverage reports. */
  operations: readonly Operation[];
  /** The contract's examples that break their own schema, for coverage reports. */
  brokenExamples: () => readonly BrokenExample[];
  /** What GET /metrics answers with. */
  metrics: MockMetrics;
  /** The contract's resources and their seeded items (GET /resources). */
  resources: ServedResources;
}

export interface AdminApiDeps extends AdminDeps {
  /** The admin API's own document (admin-openapi.yaml). */
  document: OpenApiDocument;
  /** When set, every admin call needs it as its bearer token. */
  adminToken: string | undefined;
  /** Largest request body accepted, in body-parser's notation. */
  bodyLimit: string;
}

const DEFAULT_JOURNAL_LIMIT = 50;

/** A boolean query parameter the validator has checked: true as text, or coerced. */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The operations of the contract a scenario applies to, in the contract's order, and whether
 * that is every one (a rule for `all`, or rules that cover them all).
 */
function scenarioSummary(scenario: Scenario, operations: readonly Operation[]) {
  const applied = operations.filter((op) => ruleFor(scenario, op.name) !== undefined);
  return {
    name: scenario.name,
    description: scenario.description,
    operations: applied.map((op) => op.name),
    everyOperation: applied.length > 0 && applied.length === operations.length,
  };
}

/**
 * The control plane, for mounting at /__admin: its own token (checked first), its own document
 * (requests and answers validated by express-openapi-validator), its own route table.
 */
export function createAdminApi(deps: AdminApiDeps): Router {
  return Router(ROUTER_OPTIONS).use(
    authenticateAdmin(deps.adminToken),
    express.json({ limit: deps.bodyLimit }),
    createLazyContractValidator(deps.document),
    createAdminRoutes(deps),
  );
}

/**
 * The control plane under /__admin as one route table: each entry a small task over the session
 * the call names (X-Mock-Session) or the default one. Bodies are validated by the admin document.
 */
export function createAdminRoutes({
  state,
  control,
  scenarios,
  operations,
  brokenExamples,
  metrics,
  resources,
}: AdminDeps): Router {
  // A switch naming a scenario a reload removed fires nothing: it shows as off (a reset may
  // bring back a --scenario whose file is gone).
  const known = (active: ActiveScenario | null): ActiveScenario | null =>
    active && scenarios.has(active.name) ? active : null;
  const routes: [
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    handler: RequestHandler,
  ][] = [
    [
      'get',
      '/health',
      async (_req, res) => {
        // Rejects (503 state_unavailable) while the state store cannot be reached. A failed
        // reload is reported, still 200: the last good version serves.
        await state.health();
        const reload = control?.reloadStatus();
        res.json(reload ? { status: 'ok', reload } : { status: 'ok' });
      },
    ],
    [
      'post',
      '/reload',
      async (req, res) => {
        if (!control) {
          throw new HttpError(
            404,
            'not_found',
            'This mock cannot reload: it has no files behind it.',
          );
        }
        // The validator has checked `reset` is a boolean (true or false, as text or coerced).
        res.json(await control.reload({ reset: isTrue(req.query.reset) }));
      },
    ],
    [
      'get',
      '/metrics',
      async (_req, res) => {
        // Not session-scoped; sent as text, which the validator's res.json hook never sees.
        res.type(METRICS_CONTENT_TYPE).send(await metrics.text(state));
      },
    ],
    [
      'post',
      '/reset',
      async (req, res) => {
        await state.reset(sessionIdOf(req));
        res.status(204).end();
      },
    ],
    [
      'get',
      '/scenarios',
      async (req, res) => {
        const active = known(await state.active(sessionIdOf(req)));
        res.json({
          scenarios: [...scenarios.values()].map((scenario) =>
            scenarioSummary(scenario, operations),
          ),
          active,
        });
      },
    ],
    [
      'get',
      '/resources',
      async (req, res) => {
        res.json(await listResources(resources, state, sessionIdOf(req)));
      },
    ],
    [
      'get',
      '/resources/:name/items',
      async (req, res) => {
        // The validator has made `parent` an array of strings (absent: none).
        const parent: unknown = req.query.parent;
        const parents = Array.isArray(parent) ? parent.map(String) : [];
        const { name } = req.params;
        if (typeof name !== 'string') throw new HttpError(404, 'not_found', 'Name a resource.');
        res.json({ items: await resourceItems(resources, state, sessionIdOf(req), name, parents) });
      },
    ],
    [
      'get',
      '/sessions',
      async (_req, res) => {
        // Not session-scoped: the default session, then the live named ones, most recent first.
        const sessions = await state.sessions();
        res.json({ sessions: sessions.map(({ id, active }) => ({ id, active: known(active) })) });
      },
    ],
    [
      'put',
      '/scenario',
      async (req, res) => {
        const body: unknown = req.body;
        const name = isRecord(body) && typeof body.name === 'string' ? body.name : '';
        const times = isRecord(body) && typeof body.times === 'number' ? body.times : undefined;
        await state.activate(sessionIdOf(req), scenarioNamed(scenarios, name).name, times);
        res.status(204).end();
      },
    ],
    [
      'delete',
      '/scenario',
      async (req, res) => {
        await state.deactivate(sessionIdOf(req));
        res.status(204).end();
      },
    ],
    [
      'get',
      '/requests',
      async (req, res) => {
        // The validator has made `limit` a number within the document's bounds.
        const limit = Number(req.query.limit ?? DEFAULT_JOURNAL_LIMIT);
        const requests = await state.journal(
          sessionIdOf(req),
          Number.isInteger(limit) ? limit : DEFAULT_JOURNAL_LIMIT,
        );
        res.json({ requests });
      },
    ],
    [
      'get',
      '/coverage',
      async (req, res) => {
        // Without X-Mock-Session, the whole suite's: every session together.
        const session = sessionIdOf(req);
        const tally = await state.coverage(session === undefined ? { suite: true } : { session });
        const report = reportCoverage(operations, tally, brokenExamples());
        // The validator has checked `format` against the document's list.
        const format = isCoverageFormat(req.query.format) ? req.query.format : 'json';
        if (format === 'json') {
          res.json(report);
          return;
        }
        res.type(COVERAGE_CONTENT_TYPES[format]).send(formatCoverage(report, format));
      },
    ],
    [
      'delete',
      '/coverage',
      async (req, res) => {
        await state.clearCoverage(sessionIdOf(req));
        res.status(204).end();
      },
    ],
  ];
  const router = Router(ROUTER_OPTIONS);
  for (const [method, path, handler] of routes) router[method](path, handler);
  return router;
}
