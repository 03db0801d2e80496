import { Router, type Request, type RequestHandler } from 'express';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import { isRecord } from '../contract/openapi-document.js';
import { scenarioNamed, type Scenario } from '../scenarios/scenario.js';
import { resetSession, type Session } from '../sessions/session.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { sessionIdOf } from '../sessions/session-layer.js';

export interface AdminDeps {
  sessions: SessionRegistry;
  scenarios: ReadonlyMap<string, Scenario>;
}

const DEFAULT_JOURNAL_LIMIT = 50;

function sessionOf(req: Request, sessions: SessionRegistry): Session {
  return sessions.get(sessionIdOf(req));
}

function operationsOf(scenario: Scenario): string[] {
  const ids = scenario.rules.flatMap((rule) =>
    rule.operations === 'all' ? ['all'] : rule.operations,
  );
  return [...new Set(ids)];
}

/**
 * The control plane under /__admin as one route table: each entry a small task over the session
 * the call names (X-Mock-Session) or the default one. Bodies are validated by the admin document.
 */
export function createAdminRoutes({ sessions, scenarios }: AdminDeps): Router {
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
        const active = sessionOf(req, sessions).scenarios.active;
        res.json({
          scenarios: [...scenarios.values()].map((scenario) => ({
            name: scenario.name,
            description: scenario.description,
            operations: operationsOf(scenario),
          })),
          active: active
            ? { name: active.scenario.name, remaining: active.remaining ?? null }
            : null,
        });
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
        const limit = Number(req.query.limit ?? DEFAULT_JOURNAL_LIMIT);
        const requests = sessionOf(req, sessions).journal.list(
          Number.isInteger(limit) ? limit : DEFAULT_JOURNAL_LIMIT,
        );
        res.json({ requests });
      },
    ],
  ];
  const router = Router(ROUTER_OPTIONS);
  for (const [method, path, handler] of routes) router[method](path, handler);
  return router;
}
