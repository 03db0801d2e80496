/**
 * One contract checked: a valid request per operation, sent to a server started twice with the
 * same seed; every answer judged by the oracle, and the GET answers of both starts compared.
 */
import { checkAnswer, documentedStatus } from './answer-check.js';
import { listOperations, readContract } from './contract.js';
import { send } from './http-client.js';
import { UnreadableSchema, createOracle } from './oracle.js';
import { createRequestBuilder, successStatuses } from './request-builder.js';

/** Creates first, then reads, updates, and deletes last, so a stateful server has something to serve. */
const METHOD_ORDER = ['post', 'get', 'head', 'put', 'patch', 'options', 'trace', 'delete'];

/** 4xx answers that a valid request may rightly get when the contract documents them. */
const INPUT_DEPENDENT = new Set([404, 409, 410, 412]);

/** Headers that may differ between two runs with the same seed. */
const VOLATILE_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

const BODY_EXCERPT = 240;

/**
 * Checks one contract. `launch()` starts the server (resolves as startMock does); options:
 * {quick, requestTimeoutMs, deadlineMs}. Resolves with the contract's row and its failures.
 */
export async function checkContract({ id, file, launch, options }) {
  const result = emptyResult(id);
  let doc;
  try {
    doc = readContract(file);
  } catch (error) {
    result.failures.push({ kind: 'contract unreadable', detail: error.message });
    return result;
  }
  result.openapi = doc.openapi;
  let oracle;
  try {
    oracle = createOracle(doc);
    result.oracleRelaxed = oracle.relaxed;
    const all = listOperations(doc);
    const operations = pick(order(all), options.quick);
    result.operations = all.length;
    result.checked = operations.length;
    const builder = createRequestBuilder(doc, oracle);
    const planned = [];
    for (const op of operations) planned.push({ op, ...(await builder.build(op)) });
    for (const { op, reason } of planned) {
      if (reason !== undefined) result.unbuildable.push({ op: op.key, reason });
    }
    const run = {
      doc,
      oracle,
      options,
      deadline: Date.now() + options.deadlineMs,
      siblings: siblingsOf(all.filter((op) => op.broken === undefined)),
    };
    const first = await runOnce(launch, planned, run);
    if (first.refused !== undefined) {
      result.refused = first.refused;
      result.failures.push({ kind: 'refused', detail: first.refused });
      return result;
    }
    Object.assign(result, {
      startMs: first.startMs,
      rssStartMiB: first.rssStartMiB,
      rssEndMiB: first.rssEndMiB,
    });
    const second = await runOnce(launch, planned, run);
    if (second.refused !== undefined) {
      result.failures.push({ kind: 'refused', detail: `second start: ${second.refused}` });
    }
    const errorLines = [...first.errorLines, ...(second.errorLines ?? [])];
    result.mockErrors = [...new Set(errorLines)].slice(0, 5);
    judge(result, planned, first.answers, second.answers);
    return result;
  } catch (error) {
    result.failures.push({ kind: 'harness error', detail: error.stack ?? String(error) });
    return result;
  } finally {
    oracle?.close();
  }
}

function emptyResult(id) {
  return {
    id,
    operations: 0,
    checked: 0,
    sent: 0,
    ok2xx: 0,
    status4xx: 0,
    status5xx: 0,
    invalid: 0,
    unauthorized: 0,
    documented4xx: [],
    unbuildable: [],
    sameBytes: { compared: 0, differing: 0 },
    mockErrors: [],
    failures: [],
  };
}

function order(operations) {
  const rank = (op) => METHOD_ORDER.indexOf(op.method);
  return operations
    .map((op, index) => ({ op, index }))
    .sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index)
    .map(({ op }) => op);
}

/** With `quick` (a count), that many operations spread evenly over the list. */
function pick(operations, quick) {
  if (!quick || operations.length <= quick) return operations;
  const step = operations.length / quick;
  return Array.from({ length: quick }, (_, i) => operations[Math.floor(i * step)]);
}

/** Starts the server, sends every planned request once, stops it: {answers, ...} or {refused}. */
async function runOnce(launch, planned, { doc, oracle, options, deadline, siblings }) {
  const server = await launch();
  if (server.refused !== undefined) return { refused: server.refused };
  try {
    const rssStartMiB = server.rssMiB();
    const answers = new Map();
    for (const { op, request } of planned) {
      if (request === undefined) continue;
      if (Date.now() > deadline) {
        answers.set(op.key, {
          error: `not sent: the contract's deadline (${options.deadlineMs} ms) passed`,
        });
        continue;
      }
      const answer = await send(server.url, request, options.requestTimeoutMs);
      if (answer.error === undefined) {
        answer.problems = answer.truncated
          ? ['answer larger than the harness reads (8 MiB)']
          : await judgeAnswer(doc, [op, ...(siblings.get(wireKey(op)) ?? [])], answer, oracle);
      } else if (server.exited() !== undefined) {
        answer.error = `the server exited: ${server.exited()}`;
      }
      answers.set(op.key, answer);
    }
    const errorLines = server.errorLines.map((line) =>
      line.err?.message === undefined || line.err.message === line.msg
        ? String(line.msg)
        : `${line.msg} ${line.err.message}`,
    );
    return {
      answers,
      startMs: server.startMs,
      rssStartMiB,
      rssEndMiB: server.rssMiB(),
      errorLines,
    };
  } finally {
    await server.stop();
  }
}

/** The answer's problems; an answer whose schema the oracle cannot read is marked `unchecked`. */
async function judgeAnswer(doc, [op, ...siblings], answer, oracle) {
  try {
    const problems = await checkAnswer(doc, op, answer, oracle);
    for (const sibling of problems.length > 0 ? siblings : []) {
      if (sibling !== op && (await checkAnswer(doc, sibling, answer, oracle)).length === 0)
        return [];
    }
    return problems;
  } catch (error) {
    if (!(error instanceof UnreadableSchema)) throw error;
    answer.unchecked = error.message;
    return [];
  }
}

/**
 * The request an operation travels as: its method and path without a fragment. Operations that
 * share one (/shared_items and /shared_items#folders) cannot be told apart by the server, so an
 * answer that keeps the contract of any of them keeps it.
 */
function wireKey(op) {
  return `${op.method} ${op.path.split('#')[0]}`;
}

function siblingsOf(operations) {
  const groups = new Map();
  for (const op of operations) groups.set(wireKey(op), [...(groups.get(wireKey(op)) ?? []), op]);
  return groups;
}

/**
 * Counts and failures from the first start's answers; the second start's (when it started) checked
 * and compared.
 */
function judge(result, planned, firstAnswers, secondAnswers) {
  for (const { op, request } of planned) {
    if (request === undefined) continue;
    const answer = firstAnswers.get(op.key);
    const again = secondAnswers?.get(op.key);
    const where = { op: op.key, request: describeRequest(request) };
    if (answer.error !== undefined) {
      result.failures.push({ kind: 'no answer', ...where, detail: answer.error });
      continue;
    }
    result.sent += 1;
    const sample = { ...where, status: answer.status, body: excerptOf(answer.body) };
    const excuse = excuseFor(op, answer.status);
    if (answer.unchecked !== undefined) {
      result.failures.push({ kind: 'answer not checkable', ...sample, detail: answer.unchecked });
    }
    if (answer.problems.length > 0) {
      result.invalid += 1;
      result.failures.push({
        kind: 'invalid answer',
        ...sample,
        detail: answer.problems.join('; '),
      });
    }
    if (answer.status >= 200 && answer.status < 300 && answer.problems.length === 0) {
      result.ok2xx += 1;
    }
    if (answer.status >= 500) {
      result.status5xx += 1;
      result.failures.push({ kind: '5xx', ...sample });
    } else if (answer.status >= 400) {
      const kind =
        answer.status === 401 ? "401 with the contract's credentials" : '4xx to a valid request';
      if (excuse !== undefined) {
        result.documented4xx.push({ ...sample, excuse });
      } else {
        result.failures.push({ kind, ...sample });
        if (answer.status === 401) result.unauthorized += 1;
        else result.status4xx += 1;
      }
    }
    if (secondAnswers !== undefined) compareStarts(result, op, where, answer, again);
  }
}

/** Why a 4xx to a valid request is the contract's own answer, or undefined when it is not. */
function excuseFor(op, status) {
  const key = documentedStatus(op, status);
  if (key === undefined) return undefined;
  if (successStatuses(op).length === 0) {
    return `the operation documents no success answer, only ${Object.keys(op.responses).join(', ')}`;
  }
  if (INPUT_DEPENDENT.has(status) && key !== 'default') {
    return `${key} documented: the sampled input names no existing resource`;
  }
  return undefined;
}

function compareStarts(result, op, where, answer, again) {
  if (again === undefined || again.error !== undefined) {
    result.failures.push({
      kind: 'no answer',
      ...where,
      detail: `second start: ${again?.error ?? 'not sent'}`,
    });
    return;
  }
  if (again.problems.length > 0 && answer.problems.length === 0) {
    result.invalid += 1;
    result.failures.push({
      kind: 'invalid answer',
      ...where,
      status: again.status,
      body: excerptOf(again.body),
      detail: `second start: ${again.problems.join('; ')}`,
    });
  }
  if (op.method !== 'get' && op.method !== 'head') return;
  result.sameBytes.compared += 1;
  const difference = differenceOf(answer, again);
  if (difference !== undefined) {
    result.sameBytes.differing += 1;
    result.failures.push({
      kind: 'different bytes for the same seed',
      ...where,
      status: answer.status,
      detail: difference,
    });
  }
}

/** Where two answers differ (status, a header other than the volatile ones, or the body), or undefined. */
function differenceOf(a, b) {
  if (a.status !== b.status) return `status ${a.status} then ${b.status}`;
  const names = new Set([...Object.keys(a.headers), ...Object.keys(b.headers)]);
  for (const name of names) {
    if (VOLATILE_HEADERS.has(name)) continue;
    if (String(a.headers[name]) !== String(b.headers[name])) {
      return `header ${name}: ${String(a.headers[name])} then ${String(b.headers[name])}`;
    }
  }
  if (a.body.equals(b.body)) return undefined;
  let i = 0;
  while (i < a.body.length && a.body[i] === b.body[i]) i += 1;
  const around = (body) => body.subarray(Math.max(0, i - 30), i + 50).toString('utf8');
  return `bodies differ at byte ${i}: …${around(a.body)}… then …${around(b.body)}…`;
}

function describeRequest(request) {
  let body = request.summary.mediaType === undefined ? '' : ` (${request.summary.mediaType} body)`;
  if (request.summary.bodyOmitted !== undefined) body = ` (${request.summary.bodyOmitted})`;
  return `${request.method} ${request.target}${body}, credentials: ${request.summary.credentials}`;
}

function excerptOf(body) {
  const text = body.toString('utf8').replace(/\s+/g, ' ');
  return text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text;
}
