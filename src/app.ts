import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Express } from 'express';
import type { Contract } from './contract/load-contract.js';
import { createCors } from './http/cors.js';
import {
  createErrorResponder,
  nothingServedAt,
  type ErrorResponder,
} from './http/error-handler.js';
import { queryLimitBreach } from './http/limits.js';
import { splitTarget } from './http/request-parts.js';
import { createRequestLog } from './http/request-log.js';
import type { PetStatus } from './pets/pet.js';
import { createPetApi } from './pets/pet-api.js';
import type { Scenario } from './scenarios/scenario.js';
import type { SessionRegistry } from './sessions/session-registry.js';

/** Largest request body accepted, in body-parser's notation. */
export const BODY_LIMIT = '100kb';

/**
 * Where the admin API is served: its document's server path, written here so that start-up need
 * not parse that document (a test checks they agree).
 */
export const ADMIN_PATH = '/__admin';

/** The mock as a request listener for node:http (or supertest): it never listens itself. */
export type MockApp = (req: IncomingMessage, res: ServerResponse) => void;

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

/** True when `path` is `base` or below it. */
function isUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The admin app, imported and built on the first admin call (Express and its validator). If
 * that fails (say its document cannot be read), the call is answered 500 and the next retries.
 */
function createLazyAdmin(deps: AppDeps, respond: ErrorResponder): MockApp {
  let admin: Promise<Express> | undefined;
  return (req, res) => {
    admin ??= import('./admin/admin-app.js').then(({ createAdminApp }) =>
      createAdminApp({
        adminContract: deps.adminContract,
        adminPath: ADMIN_PATH,
        sessions: deps.sessions,
        scenarios: deps.scenarios,
        adminToken: deps.adminToken,
        respond,
        bodyLimit: BODY_LIMIT,
      }),
    );
    admin
      .then(
        (app) => {
          app(req, res);
        },
        (error: unknown) => {
          admin = undefined;
          respond(error, req, res);
        },
      )
      .catch(() => {
        req.socket.destroy();
      });
  };
}

/**
 * Builds the mock without listening. Every request gets an id and a log line, `nosniff` and the
 * query bound, then CORS (preflights end there); then the pet API, the admin API or a JSON 404.
 */
export function createApp(deps: AppDeps): MockApp {
  const { contract, logger } = deps;
  const { basePath } = contract.operations;
  const respond = createErrorResponder(logger, BODY_LIMIT);
  const log = createRequestLog(logger);
  const cors = createCors(deps.corsOrigins ?? []);
  const petApi = createPetApi({
    checksOf: contract.checksOf,
    basePath,
    sessions: deps.sessions,
    scenarios: deps.scenarios,
    logger,
    respond,
    bodyLimit: BODY_LIMIT,
    apiKeys: deps.apiKeys ?? [],
    defaultStatus: deps.defaultStatus,
    validation: deps.validation ?? 'on',
  });
  const admin = deps.admin === false ? undefined : createLazyAdmin(deps, respond);

  return (req, res) => {
    const { path, search } = splitTarget(req.url);
    // The control plane first: it stays reachable whatever the contract's base path.
    const toAdmin = admin !== undefined && isUnder(path, ADMIN_PATH);
    const toPets = !toAdmin && isUnder(path, basePath);
    // Found once, for the pet API and the log line.
    const match = toPets ? contract.operations.match(req.method ?? '', path) : undefined;
    log(req, res, path, match?.operation?.operationId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const breach = queryLimitBreach(search);
    if (breach) {
      respond(breach, req, res);
      return;
    }
    cors(req, res, () => {
      if (admin && toAdmin) admin(req, res);
      else if (toPets) petApi(req, res, match, path, search);
      else respond(nothingServedAt(path), req, res);
    });
  };
}
