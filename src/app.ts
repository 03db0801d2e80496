import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { createAdminRoutes } from './admin/admin-routes.js';
import type { Contract } from './contract/load-contract.js';
import { basePathOf } from './contract/operation-index.js';
import { createContractValidator } from './contract/validator.js';
import { createBearerAuth } from './http/bearer-auth.js';
import { createCors } from './http/cors.js';
import { createErrorHandler, notFound } from './http/error-handler.js';
import { createRequestLog } from './http/request-log.js';
import { createDeprecationNotice } from './pets/deprecation.js';
import type { PetStatus } from './pets/pet.js';
import { createPetRoutes } from './pets/pet-routes.js';
import type { PetStore } from './store/pet-store.js';

/** Largest request body accepted, in body-parser's notation. */
export const BODY_LIMIT = '100kb';

/** Everything the app needs, handed in: nothing is created or read from the environment here. */
export interface AppDeps {
  contract: Contract;
  store: PetStore;
  logger: Logger;
  /** Accepted bearer tokens; empty accepts any non-empty token. */
  apiKeys?: readonly string[];
  /** Allowed CORS origins; empty allows local origins only; `*` allows any. */
  corsOrigins?: readonly string[];
  defaultStatus?: PetStatus | undefined;
}

/** Builds the mock's Express app without listening; the order below is the order of the checks. */
export function createApp(deps: AppDeps): Express {
  const { contract, store, logger } = deps;
  const basePath = basePathOf(contract.document);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(createRequestLog(logger, contract.operations));
  app.use(createCors(deps.corsOrigins ?? []));
  app.use('/__admin', createAdminRoutes(store));

  // getPet is marked deprecated on every answer, so before auth can refuse it.
  app.get(`${basePath}/pets/:petId`, createDeprecationNotice(logger, basePath));
  app.use(basePath, createBearerAuth(deps.apiKeys ?? []));
  app.use(basePath, express.json({ limit: BODY_LIMIT }));
  app.use(createContractValidator(contract.document));
  app.use(basePath, createPetRoutes(store, { defaultStatus: deps.defaultStatus }));

  app.use(notFound);
  app.use(createErrorHandler(logger, BODY_LIMIT));
  return app;
}
