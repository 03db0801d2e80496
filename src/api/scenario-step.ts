import type { Request, RequestHandler, Response } from 'express';
import type { Operation } from '../contract/operation-index.js';
import { CHALLENGE } from '../http/bearer-auth.js';
import type { SendJson } from '../http/exact-json.js';
import type { ErrorBody, ErrorCode } from '../http/http-error.js';
import { NotInContractError, preferredCode } from '../contract/prefer.js';
import type { Random } from '../util/random.js';
import {
  ruleFor,
  scenarioNamed,
  type Delay,
  type Rule,
  type Scenario,
} from '../contract/scenario.js';
import type { Session } from '../state/session.js';
import type { PetCalls } from '../http/pet-call.js';

/** A rule chosen for a request, with what chose it (for the journal). */
interface Forced {
  readonly rule: Rule;
  readonly by: string;
}

const DEFAULT_ERRORS: Readonly<Record<number, { code: ErrorCode; message: string }>> = {
  400: {
    code: 'bad_request',
    message: 'The request is missing required fields or contains invalid values.',
  },
  401: { code: 'unauthorized', message: 'Missing or invalid API key.' },
  404: { code: 'not_found', message: 'The requested animal does not exist.' },
};

/** The milliseconds a rule's delay holds: its fixed value, or drawn from min to max, both included. */
export function delayMs(delay: Delay, random: Random): number {
  return 'fixed' in delay
    ? delay.fixed
    : delay.min + Math.floor(random() * (delay.max - delay.min + 1));
}

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

/** Narrowest first: Prefer, then X-Mock-Scenario, then the session's active scenario. */
function choose(
  req: Request,
  op: Operation,
  session: Session,
  scenarios: ReadonlyMap<string, Scenario>,
): Forced | undefined {
  const prefer = req.headers.prefer;
  const code = preferredCode(Array.isArray(prefer) ? prefer.join(',') : prefer);
  if (code !== undefined) {
    if (!op.statuses.includes(code)) throw new NotInContractError(op, code);
    return { rule: { operations: [op.operationId], status: code }, by: `Prefer: code=${code}` };
  }
  const name = req.headers['x-mock-scenario'];
  if (typeof name === 'string' && name !== '') {
    const scenario = scenarioNamed(scenarios, name);
    // The request's own scenario replaces the session's for this request, matching or not.
    const rule = ruleFor(scenario, op.operationId);
    return rule && { rule, by: `scenario ${scenario.name}` };
  }
  const taken = session.scenarios.take(op.operationId);
  return taken && { rule: taken.rule, by: `scenario ${taken.scenario.name}` };
}

function errorBody(rule: Rule, status: number): ErrorBody {
  const fallback = DEFAULT_ERRORS[status] ?? { code: 'bad_request', message: 'Forced error.' };
  return { code: rule.code ?? fallback.code, message: rule.message ?? fallback.message, status };
}

/**
 * Applies scenarios to pet API requests that passed auth and validation: a delay, a network
 * fault, or a forced answer. Forced answers go out through res.json, so the validator checks them
 * like any other; forced errors never reach the store. Anything else goes on to the handler.
 */
export function applyScenarios(
  scenarios: ReadonlyMap<string, Scenario>,
  calls: PetCalls,
  sendJson: SendJson,
): RequestHandler {
  return async function applyScenarios(req, res, next) {
    const call = calls.of(req);
    const op = call.match?.operation;
    const session = call.session;
    const forced = op && session && choose(req, op, session, scenarios);
    if (!forced) {
      next();
      return;
    }
    const { rule } = forced;
    call.forcedBy = forced.by;
    if (rule.delay && !(await wait(delayMs(rule.delay, session.random), res))) return;
    if (rule.fault === 'reset') {
      req.socket.resetAndDestroy();
      return;
    }
    if (rule.fault === 'close') {
      req.socket.destroy();
      return;
    }
    const { status } = rule;
    // A delay alone, or a forced success the store answers itself.
    if (status === undefined || (status < 300 && rule.body === undefined)) {
      next();
      return;
    }
    if (status < 300) {
      sendJson(res, status, rule.body);
      return;
    }
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': CHALLENGE } : {};
    sendJson(res, status, errorBody(rule, status), headers);
  };
}
