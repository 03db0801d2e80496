import type { IncomingMessage } from 'node:http';
import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import { CONSOLE_PATH, serveConsole } from './admin-console.js';
import { createAdminApi } from './admin-routes.js';
import { createContractAnswers } from '../contract/contract-answers.js';
import type { Config } from '../config/settings.js';
import { kindOf } from '../contract/media-types.js';
import { requestMediaOf } from '../contract/document-parts.js';
import { routeNamings } from '../contract/validator-view.js';
import type { Contract } from '../contract/load-contract.js';
import { createContractValidator, type AnswerBreachListener } from '../http/contract-validator.js';
import { checkAccept } from '../http/accept.js';
import { authenticate } from '../http/authenticate.js';
import { allowCors } from '../http/cors.js';
import { answerNotFound, handleErrors } from '../http/error-handler.js';
import { installExactJson } from '../http/exact-json.js';
import { MockMetrics } from '../http/metrics.js';
import { logRequest, noSniff } from '../http/request-log.js';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import { noticeDeprecation } from './deprecation.js';
import { PetCalls } from '../http/pet-call.js';
import { createPetHandlers, withoutPetStore } from './pet-handlers.js';
import { answerOperation } from './answer-operation.js';
import { createResourceHandlers } from './resource-handlers.js';
import { inferResources } from '../contract/infer-resources.js';
import { hintsOfDocument } from '../contract/resource-hints.js';
import { createItemSeeds } from '../state/item-seeds.js';
import type { ResourceModel } from '../contract/resource-model.js';
import { createErrorShapes } from './error-shape.js';
import { writtenAnswer } from './send-answer.js';
import { readBody } from './read-body.js';
import {
  answerHeadAsGet,
  checkBodyType,
  checkQuery,
  findOperation,
  readCookies,
  readStyledPath,
  parseJsonExactly,
  requireUtf8,
} from './request-steps.js';
import { applyScenarios } from './scenario-step.js';
import { attachSession, recordCall } from './session-steps.js';
import { createProxySteps } from '../proxy/forward-step.js';
import type { Proxy } from '../proxy/proxy.js';
import type { Scenario } from '../contract/scenario.js';
import type { MockState } from '../state/mock-state.js';
import type { MockControl } from './mock-control.js';
import type { Pet } from '../state/pet.js';
import { consoleDir } from '../util/paths.js';

/** Largest request body accepted, in body-parser's notation. */
export const BODY_LIMIT = '100kb';

/** Where the admin API is served: its document's server path (a test checks they agree). */
export const ADMIN_PATH = '/__admin';

/**
 * The settings the app reads (docs/options.md says what each does), taken from the Config by
 * these names (server/load-mock.ts); a bare app takes each one's default where it is read.
 */
export const APP_SETTINGS = [
  'apiKeys',
  'corsOrigin',
  'defaultStatus',
  'adminToken',
  'noAdmin',
  'brokenExamples',
  'seed',
  'maxSessions',
  'itemCount',
] as const;

export type AppSettings = Pick<Config, (typeof APP_SETTINGS)[number]>;

/** Everything the app needs, handed in: nothing is created or read from the environment here. */
export interface AppDeps extends Partial<AppSettings> {
  /** The pet API's contract (openapi.yaml). */
  contract: Contract;
  /** The admin API's own document (admin-openapi.yaml). */
  adminContract: Contract;
  /** Everything the mock remembers: pets, sessions, switches, journals, coverage. */
  state: MockState;
  scenarios: ReadonlyMap<string, Scenario>;
  logger: Logger;
  /** The QA console's built files; the package's dist/console by default. */
  consoleDir?: string | undefined;
  /** Contract validation of the pet API; `off` exists only to measure its cost (npm run bench). */
  validation?: 'on' | 'off';
  /** Proxy mode (--proxy-target): the real service answers in the handlers' place. */
  proxy?: Proxy | undefined;
  /** The server's reload (POST /__admin/reload, and its status in health); none for a bare app. */
  control?: MockControl | undefined;
  /**
   * This app's metrics (GET /__admin/metrics), already told of the state's round trips; without
   * it the app makes its own. Never shared between apps; none kept with noAdmin.
   */
  metrics?: MockMetrics | undefined;
  /**
   * The initial pets of the definition this app serves: its answers show them even once a reload
   * has given the state newer ones, so a request never mixes versions. The state's own if unset.
   */
  initial?: readonly Pet[] | undefined;
  /**
   * The contract's resources (infer-resources.ts, with the hints file beside it); inferred from
   * the contract and its x-mock-* hints alone if unset.
   */
  resources?: ResourceModel | undefined;
}

/**
 * Whether a request's body is JSON (`application/json`, or a `+json` type) its operation takes: a
 * body of a type it does not take is not read (checkBodyType refuses it).
 */
function isJsonBodyOf(calls: PetCalls): (req: IncomingMessage) => boolean {
  return (req) => {
    const type = req.headers['content-type'];
    const op = calls.find(req)?.match?.operation;
    return (
      type !== undefined &&
      kindOf(type) === 'json' &&
      op !== undefined &&
      requestMediaOf(op, type) !== undefined
    );
  };
}

/**
 * The breach of an example served as written although it breaks its schema (--broken-examples
 * serve): sent as asked, the breach journaled with the request; any other breach is a 500.
 */
function servedAsWritten(calls: PetCalls): AnswerBreachListener {
  return (req, breaches) => {
    const call = calls.find(req);
    if (call?.answerSource !== 'example; breaks-schema') return false;
    call.validationErrors = breaches.map((breach) => `${breach.path} ${breach.message}`);
    return true;
  };
}

/**
 * Builds the mock as one Express app, without listening: mount it, or hand it to
 * http.createServer or supertest. The lists below are the order of the checks, each a named
 * step (test/integration/order-of-checks.test.ts pins it).
 */
export function createApp(deps: AppDeps): Express {
  const { contract, logger, state, scenarios } = deps;
  const calls = new PetCalls(contract.operations);
  // Built with the app, like the validator: a new contract gets new answers.
  const answers = createContractAnswers(contract, {
    seed: deps.seed ?? 1,
    brokenExamples: deps.brokenExamples,
    onBrokenExample: (broken) => {
      logger.warn(
        { operation: broken.operation, status: broken.status, problem: broken.problem },
        `the contract's example for ${broken.operation} (${String(broken.status)}) breaks its own schema: ${broken.problem}; ${deps.brokenExamples === 'serve' ? 'served as written' : 'answering generated data instead'}`,
      );
    },
  });
  const errorShapes = createErrorShapes(contract, answers);
  const pets = createPetHandlers({ defaultStatus: deps.defaultStatus }, contract);
  // The server infers with the hints file beside the contract too (load-definition.ts); a bare
  // app reads the contract's own x-mock-* hints, and no file.
  const resources = withoutPetStore(
    deps.resources ??
      inferResources(
        contract.document,
        contract.operations,
        hintsOfDocument(contract.path, contract.document, contract.operations),
      ),
    contract,
  );
  // Seeded lazily, place by place, with the app's contract version.
  const seeds = createItemSeeds(
    resources,
    contract.document,
    answers.generate,
    deps.itemCount ?? 3,
  );
  const resourceHandlers = createResourceHandlers(resources, {
    document: contract.document,
    basePath: contract.operations.basePath,
    generate: answers.generate,
    check: answers.check,
    contractBody: async (name) => {
      const op = contract.operations.byName(name);
      return op && (await answers.answer(op)).body;
    },
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Paths match as the contracts write them: /V1/PETS is no operation.
  app.set('case sensitive routing', true);
  const sendJson = installExactJson(app);
  const proxy = deps.proxy && createProxySteps(deps.proxy, calls, sendJson, logger);
  // Without the admin API nothing could read them: nothing is counted.
  const metrics = deps.noAdmin === true ? undefined : (deps.metrics ?? new MockMetrics());

  app.use(
    logRequest(logger, (req) => calls.find(req)?.match?.operation?.name),
    noSniff,
    // Preflights end here, before any credential is asked for.
    allowCors(deps.corsOrigin ?? [], contract.operations.requestHeaders),
  );
  // The admin API, unless noAdmin (which leaves no metrics either).
  if (metrics) {
    // The console's shell first: a page holds no data and needs no token; its calls send one.
    app.use(`${ADMIN_PATH}${CONSOLE_PATH}`, serveConsole(deps.consoleDir ?? consoleDir));
    app.use(
      ADMIN_PATH,
      createAdminApi({
        document: deps.adminContract.document,
        adminToken: deps.adminToken,
        bodyLimit: BODY_LIMIT,
        state,
        control: deps.control,
        scenarios,
        operations: contract.operations.operations,
        brokenExamples: () => answers.brokenExamples(),
        metrics,
        resources: { model: resources, seeds },
      }),
    );
  }
  app.use(
    contract.operations.basePath,
    // Each check of ours says what express-openapi-validator cannot do in its place.
    Router(ROUTER_OPTIONS).use(
      noticeDeprecation(logger, calls),
      recordCall(state, calls, metrics),
      // Ours: a 401 comes before every other answer, 404 and 405 included.
      authenticate(calls, contract.operations, deps.apiKeys ?? []),
      attachSession(calls),
      // Ours: 404 and 405 (with Allow) from method and path alone, before a body is read.
      findOperation(calls),
      // Ours: the validator reads no charset, and express.text would decode any into text.
      requireUtf8(calls),
      // Ours: int64 beyond 2^53 keeps its digits, depth and duplicate keys are refused; the
      // validator sees only what JSON.parse made of the text.
      express.text({ type: isJsonBodyOf(calls), limit: BODY_LIMIT }),
      parseJsonExactly(calls),
      // Ours: the validator reads no body; forms and multipart fields carry only text.
      readBody(calls, contract.document, BODY_LIMIT),
      // Ours: a budget of parameters, and integers as decimals (the validator uses Number()).
      checkQuery(calls),
      // Ours: the validator reads path parameters in simple style only, not label or matrix.
      readStyledPath(calls, contract.document, answers.check),
      // Ours: the validator reads cookie parameters from req.cookies, which Express does not make.
      readCookies,
      // Ours: the validator checks Accept only with the answer, after the handler has run.
      checkAccept(calls, (op) => answers.mediaTypesOf(op)),
      // Ours: the validator says 415 for a missing body, and knows no 400 of the contract's.
      checkBodyType(calls),
      // Ours: a HEAD the contract does not document is its GET, and the validator knows only
      // the document's methods.
      answerHeadAsGet(calls),
      ...(deps.validation === 'off'
        ? []
        : createContractValidator(contract.validatorDocument, {
            onAnswerBreach:
              proxy?.judgeRelayedAnswer ??
              (deps.brokenExamples === 'serve' ? servedAsWritten(calls) : undefined),
          })),
      applyScenarios(
        {
          scenarios,
          operations: contract.operations.operations,
          state,
          errorShapes,
          seed: deps.seed ?? 1,
          maxSessions: deps.maxSessions ?? 100,
        },
        calls,
        sendJson,
      ),
      proxy
        ? proxy.forwardToUpstream
        : answerOperation(
            {
              pets,
              resources: resourceHandlers,
              seeds,
              // Built with the app, like the validator: a new contract gets new answers.
              answers,
              initial: deps.initial,
            },
            state,
            calls,
            sendJson,
          ),
    ),
  );
  app.use(answerNotFound);
  // The validator's names of path parameters it could not read as written (validator-view.ts).
  const namings = routeNamings(Object.keys(contract.document.paths));
  app.use(
    handleErrors(logger, BODY_LIMIT, {
      onRefused: (req, refusal) => {
        // Refusals of a request that passed auth are journaled with their reasons.
        const call = calls.find(req);
        if (call?.authenticated === true && refusal.status < 500) {
          call.validationErrors = refusal.details;
        }
      },
      // A pet API refusal in the contract's own error shape, where its schema is not the mock's.
      shape: async (req, refusal) => {
        const call = calls.find(req);
        if (!call) return undefined;
        const shaped = await errorShapes.shape(call.match?.operation, refusal.toBody(), {
          choose: (offered) => req.accepts([...offered]),
        });
        return shaped && writtenAnswer(shaped);
      },
      pathParameterName: (req) => {
        const pathKey = calls.find(req)?.match?.operation?.pathKey;
        const naming = pathKey === undefined ? undefined : namings.get(pathKey);
        if (!naming) return undefined;
        return (name) => naming.names[naming.routable.indexOf(name)] ?? name;
      },
    }),
  );
  return app;
}
