import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AnswerBreachListener } from '../http/contract-validator.js';
import type { SendJson } from '../http/exact-json.js';
import { contractViolation, upstreamUnreachable } from '../http/to-http-error.js';
import { stringifyJson } from '../util/json-codec.js';
import type { PetCall, PetCalls } from '../http/pet-call.js';
import { forwardedHeaders, relayAnswerHeaders } from './proxy-headers.js';
import type { Proxy } from './proxy.js';
import { readUpstreamAnswer } from './read-answer.js';
import { UpstreamError, type UpstreamAnswer } from './upstream-client.js';

/** Asks the real service, unless the client goes away first (then resolves undefined). */
async function ask(
  proxy: Proxy,
  req: Request,
  res: Response,
  call: PetCall,
): Promise<UpstreamAnswer | undefined> {
  const body = call.body === undefined ? undefined : stringifyJson(call.body);
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  const gone = new AbortController();
  const abort = (): void => {
    gone.abort();
  };
  res.once('close', abort);
  try {
    return await proxy.client.send(
      {
        // A HEAD goes as the GET it is answered as: the answer needs a body to be validated, and
        // node sends none for a HEAD.
        method: req.method,
        // Path and query as the client sent them, below the router (the mock may be mounted).
        path: req.url,
        headers: forwardedHeaders(req.headers, requestId, body),
        body,
      },
      gone.signal,
    );
  } catch (error) {
    if (gone.signal.aborted) return undefined;
    if (error instanceof UpstreamError)
      throw upstreamUnreachable(proxy.client.target, error.message);
    throw error;
  } finally {
    res.off('close', abort);
  }
}

/** Sends an answer that is not JSON the contract documents as the real service sent it. */
function relayBytes(res: Response, answer: UpstreamAnswer): void {
  res.status(answer.status);
  relayAnswerHeaders(res, answer.headers);
  res.end(answer.body);
}

/** Proxy mode's two steps; see createProxySteps. */
export interface ProxySteps {
  /** Takes the place of the handlers' step. */
  readonly forwardToUpstream: RequestHandler;
  /** The contract validator's onAnswerBreach. */
  readonly judgeRelayedAnswer: AnswerBreachListener;
}

/**
 * Proxy mode (--proxy-target). forwardToUpstream takes the handlers' place: the request, which
 * passed auth, validation and scenarios, goes to the real service, and its answer comes back
 * through res.json, so the contract validator checks it like any answer of the mock; what the
 * validator cannot see (an undocumented status, a body that is not JSON, int64 range) is read
 * first. judgeRelayedAnswer hears the validator's breaches of a relayed answer and lets it
 * through; the mock's own answers (a forced scenario answer) keep theirs as a 500. Every breach is
 * journaled and logged; strict mode answers 502 contract_violation instead. call.upstream holds
 * the outcome, for coverage.
 */
export function createProxySteps(
  proxy: Proxy,
  calls: PetCalls,
  sendJson: SendJson,
  logger: Logger,
): ProxySteps {
  // The mock's own headers, to put back where strict mode refuses a relayed answer.
  const restorers = new WeakMap<Request, () => void>();

  function report(res: Response, call: PetCall, operationId: string): void {
    const outcome = call.upstream;
    if (!outcome || outcome.violations.length === 0) return;
    call.validationErrors = outcome.violations;
    logger.warn(
      {
        requestId: res.getHeader('X-Request-Id'),
        operationId,
        upstreamStatus: outcome.status,
        violations: outcome.violations,
      },
      proxy.strict
        ? "the real service's answer broke the contract: answered 502 instead"
        : "the real service's answer broke the contract",
    );
  }

  return {
    forwardToUpstream: async function forwardToUpstream(req, res) {
      const call = calls.of(req);
      const op = call.match?.operation;
      if (!op) throw new Error(`no operation for ${call.method} ${call.path}`);
      const answer = await ask(proxy, req, res, call);
      if (!answer) return;
      const { json, violations } = readUpstreamAnswer(answer, op);
      call.upstream = { status: answer.status, violations };
      try {
        if (proxy.strict && violations.length > 0) {
          throw contractViolation(op.name, answer.status, violations);
        }
        if (!json) {
          relayBytes(res, answer);
          return;
        }
        // Set first: the validator picks the documented media type by the answer's Content-Type.
        restorers.set(req, relayAnswerHeaders(res, answer.headers));
        sendJson(res, answer.status, json.exact, {}, json.text);
        if (call.upstream.violations.length === 0 && answer.status < 300) {
          proxy.recorder?.add(json.exact);
        }
      } finally {
        report(res, call, op.name);
      }
    },

    judgeRelayedAnswer: (req, breaches) => {
      const call = calls.find(req);
      const upstream = call?.upstream;
      if (!call || !upstream) return false;
      const violations = [
        ...upstream.violations,
        ...breaches.map((breach) => `${breach.path} ${breach.message}`),
      ];
      call.upstream = { status: upstream.status, violations };
      if (!proxy.strict) return true;
      restorers.get(req)?.();
      const operationId = call.match?.operation?.name ?? call.path;
      throw contractViolation(operationId, upstream.status, violations);
    },
  };
}
