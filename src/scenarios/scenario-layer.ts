import type { Request, RequestHandler, Response } from 'express';
import type { Operation } from '../contract/operation-index.js';
import type { OperationOf } from '../contract/operation-of.js';
import { HttpError, type ErrorBody, type ErrorCode } from '../http/http-error.js';
import type { RequestContext, RequestContexts } from '../http/request-context.js';
import { preferredCode } from './prefer.js';
import type { Random } from './random.js';
import { ruleFor, scenarioNamed, type Delay, type Rule, type Scenario } from './scenario.js';

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

function delayMs(delay: Delay, random: Random): number {
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

function notInContract(op: Operation, status: number): HttpError {
  return new HttpError(
    422,
    'not_in_contract',
    `The mock's control plane refused to force ${status}: the contract documents ${op.statuses.join(', ')} for ${op.operationId}.`,
  );
}

/** Narrowest first: Prefer, then X-Mock-Scenario, then the session's active scenario. */
function choose(
  req: Request,
  op: Operation,
  context: RequestContext,
  scenarios: ReadonlyMap<string, Scenario>,
): Forced | undefined {
  const prefer = req.headers.prefer;
  const code = preferredCode(Array.isArray(prefer) ? prefer.join(',') : prefer);
  if (code !== undefined) {
    if (!op.statuses.includes(code)) throw notInContract(op, code);
    return { rule: { operations: [op.operationId], status: code }, by: `Prefer: code=${code}` };
  }
  const name = req.headers['x-mock-scenario'];
  if (typeof name === 'string' && name !== '') {
    const scenario = scenarioNamed(scenarios, name);
    // The request's own scenario replaces the session's for this request, matching or not.
    const rule = ruleFor(scenario, op.operationId);
    return rule && { rule, by: `scenario ${scenario.name}` };
  }
  const taken = context.session.scenarios.take(op.operationId);
  return taken && { rule: taken.rule, by: `scenario ${taken.scenario.name}` };
}

function errorBody(rule: Rule, status: number): ErrorBody {
  const fallback = DEFAULT_ERRORS[status] ?? { code: 'bad_request', message: 'Forced error.' };
  return { code: rule.code ?? fallback.code, message: rule.message ?? fallback.message, status };
}

/**
 * Applies scenarios to pet API requests that passed auth and validation: a delay, a network
 * fault, or a forced answer. Forced answers go out through res.json, so the response validator
 * checks them like any other; forced errors never reach the store.
 */
export function createScenarioLayer(
  operationOf: OperationOf,
  scenarios: ReadonlyMap<string, Scenario>,
  contexts: RequestContexts,
): RequestHandler {
  return async (req, res, next) => {
    const op = operationOf(req);
    const context = contexts.find(req);
    if (!op || !context) {
      next();
      return;
    }
    const forced = choose(req, op, context, scenarios);
    if (!forced) {
      next();
      return;
    }
    const { rule } = forced;
    context.forcedBy = forced.by;
    if (rule.delay && !(await wait(delayMs(rule.delay, context.session.random), res))) return;
    if (rule.fault === 'reset') {
      req.socket.resetAndDestroy();
      return;
    }
    if (rule.fault === 'close') {
      req.socket.destroy();
      return;
    }
    const { status } = rule;
    if (status === undefined || (status < 300 && rule.body === undefined)) {
      next(); // a delay alone, or a forced success the store answers itself
      return;
    }
    if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="petstore"');
    res.status(status).json(status < 300 ? rule.body : errorBody(rule, status));
  };
}
