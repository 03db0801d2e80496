import express, { Router, type Request, type RequestHandler } from 'express';
import type { Operation } from '../contract/operation-index.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import { createLazyContractValidator } from '../contract/validator.js';
import {
  COVERAGE_CONTENT_TYPES,
  formatCoverage,
  isCoverageFormat,
} from '../state/coverage-formats.js';
import { reportCoverage } from '../state/coverage-report.js';
import { authenticateAdmin } from '../http/bearer-auth.js';
import { sessionIdOf } from '../http/request-parts.js';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import { scenarioNamed, type Scenario } from '../contract/scenario.js';
import { resetSession, type Session } from '../state/session.js';
import type { SessionRegistry } from '../state/session-registry.js';
import { isRecord } from '../util/is-record.js';

export interface AdminDeps {
  sessions: SessionRegistry;
  scenarios: ReadonlyMap<string, Scenario>;
  /** The pet API's operations, for coverage reports. */
  operations: readonly Operation[];
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

/** The session a write names, created if new. */
function sessionOf(req: Request, sessions: SessionRegistry): Session {
  return sessions.get(sessionIdOf(req));
}

/** The session a read names, if live: a read (the console polls) never creates or keeps one. */
function liveSessionOf(req: Request, sessions: SessionRegistry): Session | undefined {
  return sessions.find(sessionIdOf(req));
}

/** A session's active scenario as the admin API shows it. */
function activeOf(session: Session): { name: string; remaining: number | null } | null {
  const active = session.scenarios.active;
  return active ? { name: active.scenario.name, remaining: active.remaining ?? null } : null;
}

function operationsOf(scenario: Scenario): string[] {
  const ids = scenario.rules.flatMap((rule) =>
    rule.operations === 'all' ? ['all'] : rule.operations,
  );
  return [...new Set(ids)];
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
export function createAdminRoutes({ sessions, scenarios, operations }: AdminDeps): Router {
  const routes: [
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    handler: RequestHandler,
  ][] = [
    [
      'get',
      '/health',
      (_req, res) => {
        res.json({ status: 'ok' });
      },
    ],
    [
      'post',
      '/reset',
      async (req, res) => {
        await resetSession(sessionOf(req, sessions));
        res.status(204).end();
      },
    ],
    [
      'get',
      '/scenarios',
      (req, res) => {
        const session = liveSessionOf(req, sessions);
        res.json({
          scenarios: [...scenarios.values()].map((scenario) => ({
            name: scenario.name,
            description: scenario.description,
            operations: operationsOf(scenario),
          })),
          active: session ? activeOf(session) : null,
        });
      },
    ],
    [
      'get',
      '/sessions',
      (_req, res) => {
        // Not session-scoped: the default session, then the live named ones, most recent first.
        // peek() keeps their recency: listing them is no use.
        const live = sessions.ids().flatMap((id) => {
          const session = sessions.peek(id);
          return session ? [{ id, active: activeOf(session) }] : [];
        });
        res.json({ sessions: [{ id: null, active: activeOf(sessions.default) }, ...live] });
      },
    ],
    [
      'put',
      '/scenario',
      (req, res) => {
        const body: unknown = req.body;
        const name = isRecord(body) && typeof body.name === 'string' ? body.name : '';
        const times = isRecord(body) && typeof body.times === 'number' ? body.times : undefined;
        sessionOf(req, sessions).scenarios.activate(scenarioNamed(scenarios, name), times);
        res.status(204).end();
      },
    ],
    [
      'delete',
      '/scenario',
      (req, res) => {
        sessionOf(req, sessions).scenarios.deactivate();
        res.status(204).end();
      },
    ],
    [
      'get',
      '/requests',
      (req, res) => {
        // The validator has made `limit` a number within the document's bounds.
        const limit = Number(req.query.limit ?? DEFAULT_JOURNAL_LIMIT);
        const requests =
          liveSessionOf(req, sessions)?.journal.list(
            Number.isInteger(limit) ? limit : DEFAULT_JOURNAL_LIMIT,
          ) ?? [];
        res.json({ requests });
      },
    ],
    [
      'get',
      '/coverage',
      (req, res) => {
        // Without X-Mock-Session, the whole suite's: every session together.
        const report = reportCoverage(operations, sessions.coverageOf(sessionIdOf(req)));
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
      (req, res) => {
        sessions.clearCoverage(sessionIdOf(req));
        res.status(204).end();
      },
    ],
  ];
  const router = Router(ROUTER_OPTIONS);
  for (const [method, path, handler] of routes) router[method](path, handler);
  return router;
}
