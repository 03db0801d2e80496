/**
 * The figures of bench/contract.js: which operations it asks for, and what its rounds come to
 * against the floors of issue 29 (item 8). Pure: no process, no socket.
 */
import { median } from './rounds.js';

/** How many operations are asked for once each after the first answer. */
export const OPERATION_COUNT = 20;

/** The floors of issue 29 for a large contract, the mock against Prism in the same run. */
export const GOALS = {
  /** Spawn to the first answer: at most this many times Prism's. */
  startOverPrism: 1.5,
  /** VmRSS 1 s after that answer: at most this many times Prism's. */
  rssStartOverPrism: 1,
  /** The first answer of an operation once started (median of the operations): at most this. */
  operationFirstAnswerMs: 50,
};

/**
 * The GET operations that need nothing but credentials: no path parameter, no required parameter,
 * and credentials sent as headers only. `operations`: the corpus's listOperations; `credentialsOf`:
 * the credentials an operation's security asks for (the corpus's credentialsFor). Sorted by path,
 * so that the choice does not depend on the document's order.
 */
export function plainGets(operations, credentialsOf) {
  const plain = [];
  for (const op of operations) {
    if (op.method !== 'get' || op.broken !== undefined || op.path.includes('{')) continue;
    if (op.parameters.some(({ value }) => value.in === 'path' || value.required === true)) continue;
    const credentials = credentialsOf(op.security);
    if (credentials.reason !== undefined) continue;
    if (credentials.query.length > 0 || credentials.cookies.length > 0) continue;
    plain.push({ path: op.path, headers: credentials.headers, credentials: credentials.label });
  }
  return plain.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/**
 * `count` of the list spread evenly over it (the first, then every list.length / count-th), so
 * that the choice reaches every part of the API; the whole list when it is shorter.
 */
export function spreadOver(list, count) {
  if (list.length <= count) return [...list];
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);
}

/**
 * The fixed first operation and the others: `first` must be one of the plain GETs; the others are
 * OPERATION_COUNT of the rest, spread over them. Throws when the contract has too few.
 */
export function chooseOperations(plain, firstPath) {
  const first = plain.find(({ path }) => path === firstPath);
  if (first === undefined) throw new Error(`GET ${firstPath} is not a GET without parameters`);
  const rest = plain.filter(({ path }) => path !== firstPath);
  if (rest.length < OPERATION_COUNT) {
    throw new Error(`only ${rest.length} other GETs without parameters, ${OPERATION_COUNT} needed`);
  }
  return { first, others: spreadOver(rest, OPERATION_COUNT) };
}

/** The p-th percentile (0–100) by nearest rank: a value that was measured. */
export function percentile(values, p) {
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** A figure over the rounds: its median and its spread (null when no round measured it). */
export function overRounds(values) {
  const measured = values.filter((v) => typeof v === 'number');
  if (measured.length === 0) return null;
  return {
    median: median(measured),
    min: Math.min(...measured),
    max: Math.max(...measured),
    rounds: measured,
  };
}

/** Whether an answer is a success (2xx). */
const success = (status) => status >= 200 && status < 300;

/**
 * One round of one system on one contract, as measured (see contract.js), summed up: the
 * operations' first answers as median, p90 and max, and whether all of them were successes.
 */
export function summariseRound(round) {
  const times = round.operations.map(({ ms }) => ms);
  return {
    ...round,
    operationsMedianMs: median(times),
    operationsP90Ms: percentile(times, 90),
    operationsMaxMs: Math.max(...times),
    failed: round.operations.filter(({ status }) => !success(status)),
  };
}

/** The figures the report shows, each over the rounds: [key, label, unit]. */
export const FIGURES = [
  ['startMs', 'start to first answer', 'ms'],
  ['startCpuMs', 'CPU time to first answer (utime+stime)', 'ms'],
  ['rssStartMiB', 'RSS 1 s after the first answer', 'MiB'],
  ['operationsMedianMs', 'first answer of an operation: median of 20', 'ms'],
  ['operationsP90Ms', 'first answer of an operation: p90 of 20', 'ms'],
  ['operationsMaxMs', 'first answer of an operation: max of 20', 'ms'],
  ['rssAfterMiB', 'RSS right after the 20', 'MiB'],
];

/** A system's rounds on a contract as figures over the rounds, with the answers that failed. */
export function combineSystemRounds(rounds) {
  const summed = rounds.map(summariseRound);
  const figures = Object.fromEntries(
    FIGURES.map(([key]) => [key, overRounds(summed.map((round) => round[key]))]),
  );
  const failed = summed.flatMap((round, i) =>
    round.failed.map(({ path, status }) => ({ round: i + 1, path, status })),
  );
  return { figures, failed, rounds: summed };
}

/** top / bottom of two figures over the rounds (their medians), or undefined. */
export function ratioOf(top, bottom) {
  if (top == null || bottom == null || bottom.median === 0) return undefined;
  return top.median / bottom.median;
}

function floor(contract, label, measured, goal, met, reason) {
  if (measured === undefined)
    return { contract, floor: label, measured: '–', goal, result: reason };
  return { contract, floor: label, ...measured, goal, result: met ? 'met' : 'missed' };
}

/**
 * The floors for one contract: `mock` and `prism` are combineSystemRounds results (prism
 * undefined when it did not run). A floor on a figure whose answers were not all successes is not
 * judged.
 */
export function judgeFloors(contract, mock, prism) {
  const noPrism = 'n/a (Prism not measured)';
  const startRatio = ratioOf(mock.figures.startMs, prism?.figures.startMs);
  const rssRatio = ratioOf(mock.figures.rssStartMiB, prism?.figures.rssStartMiB);
  const operations = mock.figures.operationsMedianMs;
  const times = (v) => ({ measured: `${v.toFixed(2)}×`, value: v });
  const floors = [
    floor(
      contract,
      'start to first answer: mock / Prism',
      startRatio === undefined ? undefined : times(startRatio),
      `≤ ${GOALS.startOverPrism}×`,
      startRatio !== undefined && startRatio <= GOALS.startOverPrism,
      noPrism,
    ),
    floor(
      contract,
      'RSS after start: mock / Prism',
      rssRatio === undefined ? undefined : times(rssRatio),
      `≤ ${GOALS.rssStartOverPrism}×`,
      rssRatio !== undefined && rssRatio <= GOALS.rssStartOverPrism,
      noPrism,
    ),
  ];
  const valid = mock.failed.length === 0 && operations !== null;
  floors.push(
    floor(
      contract,
      "an operation's first answer: mock, median of 20",
      valid
        ? { measured: `${Math.round(operations.median)} ms`, value: operations.median }
        : undefined,
      `≤ ${GOALS.operationFirstAnswerMs} ms`,
      valid && operations.median <= GOALS.operationFirstAnswerMs,
      'n/a (answers that were not a success)',
    ),
  );
  return floors;
}
