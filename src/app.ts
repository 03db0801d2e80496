import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import { createAdminRoutes } from './admin/admin-routes.js';
import type { Contract } from './contract/load-contract.js';
import { basePathOf } from './contract/operation-index.js';
import { createOperationOf } from './contract/operation-of.js';
import { createStrictQueryIntegers } from './contract/strict-query.js';
import { createContractValidator, createLazyContractValidator } from './contract/validator.js';
import { createAdminAuth, createBearerAuth } from './http/bearer-auth.js';
import { createCors } from './http/cors.js';
import { createErrorHandler, notFound } from './http/error-handler.js';
import { RequestContexts } from './http/request-context.js';
import { limitRequests } from './http/limits.js';
import { createRequestLog } from './http/request-log.js';
import { ROUTER_OPTIONS } from './http/router-options.js';
import { createExactBodyParser, installExactJson } from './json/exact-json.js';
import { createDeprecationNotice } from './pets/deprecation.js';
import type { PetStatus } from './pets/pet.js';
import { createPetRoutes } from './pets/pet-routes.js';
import type { Scenario } from './scenarios/scenario.js';
import { createScenarioLayer } from './scenarios/scenario-layer.js';
import { createJournalLayer, createSessionLayer } from './sessions/session-layer.js';
import type { SessionRegistry } from './sessions/session-registry.js';

/** Largest request body accepted, in body-parser's notation. */
export const BODY_LIMIT = '100kb';

/** Everything the app needs, handed in: nothing is created or read from the environment here. */
export interface AppDeps {
  /** The pet API's contract (openapi.yaml). */
  contract: Contract;
  /** The admin API's own document (admin-openapi.yaml). */
  adminContract: Contract;
  sessions: SessionRegistry;
  scenarios: ReadonlyMap<string, Scenario>;
  logger: Logger;
  /** Accepted bearer tokens; empty accepts any non-empty token. */
  apiKeys?: readonly string[];
  /** Allowed CORS origins; empty allows local origins only; `*` allows any. */
  corsOrigins?: readonly string[];
  defaultStatus?: PetStatus | undefined;
  /** When set, every admin call needs it as its bearer token. */
  adminToken?: string | undefined;
  /** False: no /__admin API at all (--no-admin). */
  admin?: boolean;
  /** Contract validation of the pet API; `off` exists only to measure its cost (npm run bench). */
  validation?: 'on' | 'off';
}

/** Builds the mock's Express app without listening; the order below is the order of the checks. */
export function createApp(deps: AppDeps): Express {
  const { contract, adminContract, sessions, scenarios, logger } = deps;
  const basePath = basePathOf(contract.document);
  const adminPath = basePathOf(adminContract.document);
  const contexts = new RequestContexts();
  const operationOf = createOperationOf(contract.operations);
  const bodies = createExactBodyParser();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Paths match as the contract writes them: /V1/PETS is no operation (and the validator, which
  // matches case-sensitively, would otherwise let its answer through unchecked).
  app.set('case sensitive routing', true);
  const sendJson = installExactJson(app);

  app.use(createRequestLog(logger, operationOf));
  app.use(limitRequests);
  app.use(createCors(deps.corsOrigins ?? []));

  // The control plane: its own token, its own document, its own route table. Each API is one
  // router mounted once, so its path prefix is matched once per request, not once per layer.
  if (deps.admin !== false) {
    const admin = Router(ROUTER_OPTIONS).use(
      createAdminAuth(deps.adminToken),
      express.json({ limit: BODY_LIMIT }),
      createLazyContractValidator(adminContract.document),
      createAdminRoutes({ sessions, scenarios }),
    );
    app.use(adminPath, admin);
  }

  // The pet API: auth before anything else, then session, body, validation, scenarios, handlers.
  const petApi = Router(ROUTER_OPTIONS);
  petApi.use(
    // getPet is marked deprecated on every answer, so before auth can refuse it.
    createDeprecationNotice(logger, basePath, operationOf),
    createJournalLayer(sessions, contexts, operationOf),
    createBearerAuth(deps.apiKeys ?? []),
    createSessionLayer(sessions, contexts),
    // Read as text and parsed losslessly, so int64 values beyond 2^53 keep their digits.
    express.text({ type: 'application/json', limit: BODY_LIMIT }),
    bodies.parse,
    createStrictQueryIntegers(operationOf),
    ...(deps.validation === 'off' ? [] : [createContractValidator(contract.document)]),
    createScenarioLayer(operationOf, scenarios, contexts),
    createPetRoutes({
      storeOf: (req) => contexts.of(req).session.store,
      bodyOf: bodies.bodyOf,
      sendJson,
      defaultStatus: deps.defaultStatus,
    }),
  );
  app.use(basePath, petApi);

  app.use(notFound);
  app.use(createErrorHandler(logger, BODY_LIMIT, contexts));
  return app;
}
