import type { Request, RequestHandler, Response } from 'express';
import type { Operation } from '../contract/operation-index.js';
import { challengeOfOperation } from '../http/authenticate.js';
import { sendJsonText } from '../http/send-json.js';
import { documentsStatus } from '../contract/operation-index.js';
import type { ErrorShapes } from './error-shape.js';
import { sendContractAnswer } from './send-answer.js';
import { isPetStoreOperation } from './pet-handlers.js';
import type { SendJson } from '../http/exact-json.js';
import type { ErrorBody, ErrorCode } from '../http/http-error.js';
import { NotInContractError, preferredCode } from '../contract/prefer.js';
import { canForce } from '../contract/rule-kinds/status.js';
import { RULE_KINDS } from '../contract/rule-kinds/all-kinds.js';
import type { RuleExchange } from '../contract/rule-kinds/rule-kind.js';
import { createRandom, type Random } from '../util/random.js';
import { ruleFor, scenarioNamed, type Rule, type Scenario } from '../contract/scenario.js';
import type { MockState, SessionId } from '../state/mock-state.js';
import type { PetCalls } from '../http/pet-call.js';

export { delayMs } from '../contract/rule-kinds/delay.js';

/** A rule chosen for a request, with what chose it (for the journal). */
interface Forced {
  readonly rule: Rule;
  readonly by: string;
}

/** A forced error's code and message where its rule gives none: the Pet Store's own words first. */
const DEFAULT_ERRORS: Readonly<
  Record<number, { code: ErrorCode; message: string; petStore?: string }>
> = {
  400: {
    code: 'bad_request',
    message: 'The request is missing required fields or contains invalid values.',
  },
  401: {
    code: 'unauthorized',
    message: 'Missing or invalid credentials.',
    petStore: 'Missing or invalid API key.',
  },
  404: {
    code: 'not_found',
    message: 'The requested resource does not exist.',
    petStore: 'The requested animal does not exist.',
  },
};

/** Waits, unless the client goes away first; resolves false if it did. */
function wait(ms: number, res: Response): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve(!res.closed);
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

/** The scenarios with a rule for each operation, by name: what a switch may take for it. */
function scenariosByOperation(
  scenarios: ReadonlyMap<string, Scenario>,
  operations: readonly Operation[],
): ReadonlyMap<string, readonly string[]> {
  return new Map(
    operations.map((op) => [
      op.name,
      [...scenarios.values()].filter((s) => ruleFor(s, op.name)).map((s) => s.name),
    ]),
  );
}

/**
 * Each session's own seeded draw of delays, so that a run repeats: the default session's and
 * those of the `max` named sessions used last.
 */
function createDelayDraws(seed: number, max: number): (session: SessionId) => Random {
  const defaultDraw = createRandom(seed);
  const draws = new Map<string, Random>();
  return (session) => {
    if (session === undefined) return defaultDraw;
    const draw = draws.get(session) ?? createRandom(seed);
    // Re-inserted: a Map keeps insertion order, so the first is the least recently used.
    draws.delete(session);
    draws.set(session, draw);
    const oldest = draws.keys().next();
    if (draws.size > max && oldest.done !== true) draws.delete(oldest.value);
    return draw;
  };
}

/**
 * Narrowest first: Prefer, then X-Mock-Scenario, then the session's switch, which is taken (one
 * of its "next N" counted off) only when neither header forces the answer. Opens the session.
 */
async function choose(
  req: Request,
  op: Operation,
  session: SessionId,
  scenarios: ReadonlyMap<string, Scenario>,
  state: MockState,
  matching: readonly string[],
): Promise<Forced | undefined> {
  const prefer = req.headers.prefer;
  const code = preferredCode(Array.isArray(prefer) ? prefer.join(',') : prefer);
  if (code !== undefined) {
    if (!canForce(op, code)) throw new NotInContractError(op, code);
    await state.beginCall(session, undefined);
    return { rule: { operations: [op.name], status: code }, by: `Prefer: code=${code}` };
  }
  const name = req.headers['x-mock-scenario'];
  if (typeof name === 'string' && name !== '') {
    const scenario = scenarioNamed(scenarios, name);
    await state.beginCall(session, undefined);
    // The request's own scenario replaces the session's for this request, matching or not.
    const rule = ruleFor(scenario, op.name);
    return rule && { rule, by: `scenario ${scenario.name}` };
  }
  const taken = await state.beginCall(session, matching);
  const scenario = taken === undefined ? undefined : scenarios.get(taken);
  if (!scenario) return undefined;
  const rule = ruleFor(scenario, op.name);
  return rule && { rule, by: `scenario ${scenario.name}` };
}

function errorBody(
  text: { readonly code?: string; readonly message?: string },
  status: number,
  op: Operation,
): ErrorBody {
  const fallback = DEFAULT_ERRORS[status] ?? { code: 'bad_request', message: 'Forced error.' };
  const message = (isPetStoreOperation(op) ? fallback.petStore : undefined) ?? fallback.message;
  return { code: text.code ?? fallback.code, message: text.message ?? message, status };
}

/** Kinds that act before the answer first, then the one that answers. */
const APPLY_ORDER = [
  ...RULE_KINDS.filter((kind) => !kind.answers),
  ...RULE_KINDS.filter((kind) => kind.answers),
];

/**
 * Applies scenarios to pet API requests that passed auth and validation: a delay, a network
 * fault, or a forced answer. Forced answers go out through res.json, so the validator checks them
 * like any other; forced errors never reach the store. Anything else goes on to the handler.
 */
export function applyScenarios(
  needs: {
    scenarios: ReadonlyMap<string, Scenario>;
    operations: readonly Operation[];
    state: MockState;
    /** How a forced error is written where the contract's error shape is not the mock's. */
    errorShapes: ErrorShapes;
    /** Seed of the delays drawn from scenario ranges, and how many sessions keep their draw. */
    seed: number;
    maxSessions: number;
  },
  calls: PetCalls,
  sendJson: SendJson,
): RequestHandler {
  const { scenarios, state } = needs;
  const byOperation = scenariosByOperation(scenarios, needs.operations);
  const drawOf = createDelayDraws(needs.seed, needs.maxSessions);
  return async function applyScenarios(req, res, next) {
    const call = calls.of(req);
    const op = call.match?.operation;
    if (!op) throw new Error(`no operation for ${call.method} ${call.path}`);
    const { session } = call;
    const forced = await choose(req, op, session, scenarios, state, byOperation.get(op.name) ?? []);
    if (!forced) {
      next();
      return;
    }
    const { rule } = forced;
    // A rule of some of the requests only (`chance`): drawn from the session's seeded draw.
    if (rule.chance !== undefined && drawOf(session)() >= rule.chance) {
      next();
      return;
    }
    call.forcedBy = forced.by;
    const exchange: RuleExchange = {
      operation: op,
      // Only a rule that draws (a delay range) touches the session's draw: its cache of draws
      // keeps the sessions that use them.
      get draw() {
        return drawOf(session);
      },
      wait: (ms) => wait(ms, res),
      drop: (how) => {
        if (how === 'reset') req.socket.resetAndDestroy();
        else req.socket.destroy();
      },
      passOn: (status) => {
        call.forcedStatus = status;
        next();
      },
      send: (status, body) => {
        sendJson(res, status, body);
      },
      refuse: async (status, text) => {
        const headers: Record<string, string> =
          status === 401 ? { 'WWW-Authenticate': challengeOfOperation(op) } : {};
        const body = errorBody(text, status, op);
        // A status the contract does not list for the operation (a secured one's 401) is answered as
        // the mock's own refusals are, past the response validation that has no schema for it.
        if (!documentsStatus(op, status)) {
          sendJsonText(res, status, JSON.stringify(body), headers);
          return;
        }
        const shaped = await needs.errorShapes.shape(op, body, {
          choose: (offered) => req.accepts([...offered]),
        });
        if (shaped) {
          call.answerSource = shaped.source;
          sendContractAnswer(
            res,
            { ...shaped, headers: { ...shaped.headers, ...headers } },
            sendJson,
          );
          return;
        }
        sendJson(res, status, body, headers);
      },
    };
    for (const kind of APPLY_ORDER) {
      if (rule[kind.name] !== undefined && !(await kind.apply(rule, exchange))) return;
    }
    // Only kinds that act before the answer (a delay): the handler answers.
    exchange.passOn();
  };
}
