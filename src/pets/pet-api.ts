import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import type { OperationChecks } from '../contract/operation-checks.js';
import type { Match, Operation } from '../contract/operation-index.js';
import { queryIntegerBreach } from '../contract/strict-query.js';
import { acceptsJson } from '../http/accept.js';
import { createBearerAuth } from '../http/bearer-auth.js';
import type { ErrorResponder } from '../http/error-handler.js';
import { hasBody } from '../http/request-parts.js';
import { createBodyReader } from '../http/read-body.js';
import { sendJsonText } from '../http/send-json.js';
import {
  methodNotAllowed,
  noOperation,
  notAcceptable,
  requestViolation,
  responseViolation,
  unsupportedBody,
} from '../http/to-http-error.js';
import { parseRequestBody } from '../json/exact-json.js';
import { int64Breaches } from '../json/int64.js';
import { stringifyJson, validationView } from '../json/json-codec.js';
import type { Scenario } from '../scenarios/scenario.js';
import { createScenarioLayer } from '../scenarios/scenario-layer.js';
import { recordInJournal, sessionIdOf } from '../sessions/session-layer.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { createDeprecationNotice } from './deprecation.js';
import type { PetStatus } from './pet.js';
import type { PetCall, Reply } from './pet-call.js';
import { createPetHandlers } from './pet-handlers.js';

export interface PetApiDeps {
  /** The contract's compiled checks of each operation (Contract.checksOf). */
  checksOf: (op: Operation) => OperationChecks;
  basePath: string;
  sessions: SessionRegistry;
  scenarios: ReadonlyMap<string, Scenario>;
  logger: Logger;
  respond: ErrorResponder;
  /** Largest request body accepted, in body-parser's notation. */
  bodyLimit: string;
  apiKeys: readonly string[];
  defaultStatus: PetStatus | undefined;
  /** `off` skips the contract checks, only to measure their cost (npm run bench). */
  validation: 'on' | 'off';
}

/**
 * Answers one pet API request: `match` is what its method and path name in the contract (found
 * by the caller, which logs it too); `path` and `search` are its URL's path and query.
 */
export type PetApi = (
  req: IncomingMessage,
  res: ServerResponse,
  match: Match,
  path: string,
  search: string,
) => void;

function decodedParams(raw: Readonly<Record<string, string>>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) decoded[name] = decodeURIComponent(value);
  return decoded;
}

/**
 * The pet API as one pipeline over node's request and response, in the order of its checks:
 * deprecation notice, journal, auth, session, body, operation, query integers, Accept, the
 * contract's checks of parameters and body, scenarios, handler, and the contract's check of the
 * answer before it is written. Every refusal is thrown and answered by the one error responder.
 */
export function createPetApi(deps: PetApiDeps): PetApi {
  const { sessions, respond } = deps;
  const authenticate = createBearerAuth(deps.apiKeys);
  const { checksOf } = deps;
  const readBody = createBodyReader(deps.bodyLimit);
  const noticeDeprecation = createDeprecationNotice(deps.logger, deps.basePath);
  const applyScenarios = createScenarioLayer(deps.scenarios);
  const handlers = createPetHandlers({ defaultStatus: deps.defaultStatus });
  const checking = deps.validation === 'on';

  /** Checks an answer against the contract, then writes it with its int64 digits exact. */
  function send(res: ServerResponse, op: Operation, reply: Reply): void {
    if (checking) {
      const view = validationView(reply.body);
      // The schema sees int64 values rounded (a copy is made only for bigints); beyond 2^53
      // their range is checked exactly here.
      const broken = [
        ...checksOf(op).response(reply.status, view),
        ...(view === reply.body ? [] : int64Breaches(reply.body, '/response')),
      ];
      if (broken.length > 0) throw responseViolation(broken);
    }
    sendJsonText(res, reply.status, stringifyJson(reply.body), reply.headers);
  }

  async function serve(call: PetCall, match: Match, search: string): Promise<void> {
    const { req, res, path } = call;
    const method = req.method ?? '';
    const refused = authenticate(req.headers.authorization);
    if (refused) throw refused;
    const session = sessions.get(sessionIdOf(req));
    call.session = session;
    // Read as text and parsed losslessly, so int64 values beyond 2^53 keep their digits.
    const withBody = hasBody(req);
    const text = withBody ? await readBody(req, res) : undefined;
    const body = text === undefined ? undefined : parseRequestBody(text);
    if (!match) throw noOperation(method, path);
    if (!match.operation) throw methodNotAllowed(method, path, match.allowed.join(', '));
    const op = match.operation;
    const query: Record<string, unknown> = parseQuery(search);
    const breach = queryIntegerBreach(op, query);
    if (breach) throw breach;
    const accept = req.headers.accept;
    if (!acceptsJson(accept)) throw notAcceptable();
    const params = decodedParams(match.params);
    if (checking) {
      if (op.requestBody?.required === true && text === undefined) {
        throw unsupportedBody(withBody, req.headers['content-type'], op.requestBody.schema);
      }
      const view = validationView(body);
      const violations = checksOf(op).request({
        params: { ...params },
        query,
        headers: req.headers,
        body: view,
      });
      if (violations.length > 0) throw requestViolation(violations);
    }
    const outcome = await applyScenarios(call, op, session);
    if (outcome === 'ended') return;
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`no handler for the operation ${op.operationId}`);
    send(res, op, outcome ?? (await handler({ params, query, body, store: session.store })));
  }

  return (req, res, match, path, search) => {
    const call: PetCall = { req, res, path, op: match?.operation };
    if (call.op?.deprecated) noticeDeprecation(req, res, call.op);
    recordInJournal(call, sessions);
    serve(call, match, search)
      .catch((error: unknown) => {
        const answered = respond(error, req, res);
        // Refusals of a request that reached its session are journaled with their reasons.
        if (call.session && answered.status < 500) call.validationErrors = answered.details;
      })
      .catch(() => {
        // The responder itself failed: nothing more can be said; the client sees the socket end.
        req.socket.destroy();
      });
  };
}
