import type { ServerResponse } from 'node:http';
import type { Operation } from '../contract/operation-index.js';
import { CHALLENGE } from '../http/bearer-auth.js';
import { HttpError, type ErrorBody, type ErrorCode } from '../http/http-error.js';
import type { PetCall, Reply } from '../pets/pet-call.js';
import type { Session } from '../sessions/session.js';
import { preferredCode } from './prefer.js';
import type { Random } from './random.js';
import { ruleFor, scenarioNamed, type Delay, type Rule, type Scenario } from './scenario.js';

/** A rule chosen for a request, with what chose it (for the journal). */
interface Forced {
  readonly rule: Rule;
  readonly by: string;
}

/**
 * What scenarios make of a request: `undefined` to answer it normally (after any delay), a
 * forced Reply, or `ended` when there is nothing to send (a network fault, or the client left).
 */
export type ScenarioOutcome = Reply | 'ended' | undefined;

/** Applies the scenarios in force to a request that passed auth and the contract checks. */
export type ScenarioLayer = (
  call: PetCall,
  op: Operation,
  session: Session,
) => Promise<ScenarioOutcome>;

const DEFAULT_ERRORS: Readonly<Record<number, { code: ErrorCode; message: string }>> = {
  400: {
    code: 'bad_request',
    message: 'The request is missing required fields or contains invalid values.',
  },
  401: { code: 'unauthorized', message: 'Missing or invalid API key.' },
  404: { code: 'not_found', message: 'The requested animal does not exist.' },
};

function delayMs(delay: Delay, random: Random): number {
  return 'fixed' in delay
    ? delay.fixed
    : delay.min + Math.floor(random() * (delay.max - delay.min + 1));
}

/** Waits, unless the client goes away first; resolves false if it did. */
function wait(ms: number, res: ServerResponse): Promise<boolean> {
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

function notInContract(op: Operation, status: number): HttpError {
  return new HttpError(
    422,
    'not_in_contract',
    `The mock's control plane refused to force ${status}: the contract documents ${op.statuses.join(', ')} for ${op.operationId}.`,
  );
}

/** Narrowest first: Prefer, then X-Mock-Scenario, then the session's active scenario. */
function choose(
  call: PetCall,
  op: Operation,
  session: Session,
  scenarios: ReadonlyMap<string, Scenario>,
): Forced | undefined {
  const prefer = call.req.headers.prefer;
  const code = preferredCode(Array.isArray(prefer) ? prefer.join(',') : prefer);
  if (code !== undefined) {
    if (!op.statuses.includes(code)) throw notInContract(op, code);
    return { rule: { operations: [op.operationId], status: code }, by: `Prefer: code=${code}` };
  }
  const name = call.req.headers['x-mock-scenario'];
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
 * fault, or a forced answer. Forced answers are checked against the contract like any other;
 * forced errors never reach the store.
 */
export function createScenarioLayer(scenarios: ReadonlyMap<string, Scenario>): ScenarioLayer {
  return async (call, op, session) => {
    const forced = choose(call, op, session, scenarios);
    if (!forced) return undefined;
    const { rule } = forced;
    call.forcedBy = forced.by;
    if (rule.delay && !(await wait(delayMs(rule.delay, session.random), call.res))) return 'ended';
    if (rule.fault === 'reset') {
      call.req.socket.resetAndDestroy();
      return 'ended';
    }
    if (rule.fault === 'close') {
      call.req.socket.destroy();
      return 'ended';
    }
    const { status } = rule;
    // A delay alone, or a forced success the store answers itself.
    if (status === undefined || (status < 300 && rule.body === undefined)) return undefined;
    if (status < 300) return { status, body: rule.body };
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': CHALLENGE } : {};
    return { status, body: errorBody(rule, status), headers };
  };
}
