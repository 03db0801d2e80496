import express, { Router, type Express } from 'express';
import type { Contract } from '../contract/load-contract.js';
import { createContractValidator } from '../contract/validator.js';
import { createAdminAuth } from '../http/bearer-auth.js';
import {
  expressErrorHandler,
  nothingServedAt,
  type ErrorResponder,
} from '../http/error-handler.js';
import { pathOf } from '../http/request-parts.js';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import type { Scenario } from '../scenarios/scenario.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { createAdminRoutes } from './admin-routes.js';

export interface AdminAppDeps {
  /** The admin API's own document (admin-openapi.yaml). */
  adminContract: Contract;
  /** Where it is served, e.g. `/__admin`. */
  adminPath: string;
  sessions: SessionRegistry;
  scenarios: ReadonlyMap<string, Scenario>;
  /** When set, every admin call needs it as its bearer token. */
  adminToken: string | undefined;
  respond: ErrorResponder;
  bodyLimit: string;
}

/**
 * The control plane as an Express app: its own token, its own document (requests and responses
 * validated by express-openapi-validator), its own route table. Loaded on the first admin call,
 * so the pet API never pays for Express or the validator at start.
 */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.use(
    deps.adminPath,
    Router(ROUTER_OPTIONS).use(
      createAdminAuth(deps.adminToken),
      express.json({ limit: deps.bodyLimit }),
      createContractValidator(deps.adminContract.document),
      createAdminRoutes({ sessions: deps.sessions, scenarios: deps.scenarios }),
    ),
  );
  app.use((req, _res, next) => {
    next(nothingServedAt(pathOf(req.originalUrl)));
  });
  app.use(expressErrorHandler(deps.respond));
  return app;
}
