/** One measurement: a warm-up, then autocannon for a fixed time, in this (the runner's) process. */
import autocannon from 'autocannon';
import { AUTH } from './systems.js';

const REQUEST_TIMEOUT_S = 10;

/** The requests of the workloads, relative to a system's base URL. */
export const REQUESTS = {
  list: { path: '/pets', method: 'GET', expect: 200 },
  get: { path: '/pets/1', method: 'GET', expect: 200 },
  create: {
    path: '/pets',
    method: 'POST',
    expect: 201,
    body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
    // Each measurement of creates starts from the same store (see runWorkload).
    resetsStore: true,
  },
  listSold: { path: '/pets?status=sold&limit=20', method: 'GET', expect: 200 },
  list20: { path: '/pets?limit=20', method: 'GET', expect: 200 },
};

function fire(baseUrl, request, connections, seconds) {
  return autocannon({
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: request.body ? { ...AUTH, 'Content-Type': 'application/json' } : AUTH,
    body: request.body,
    connections,
    duration: seconds,
    timeout: REQUEST_TIMEOUT_S,
  });
}

/**
 * Measures one request against one server. `bad` counts every request that was not a success as
 * the contract defines it (any other status, socket errors, time-outs): a benchmark of errors is
 * worthless, so the report marks a measurement with bad requests as invalid. `beforeRun` is
 * awaited between the warm-up and the measured run.
 */
export async function measure(
  baseUrl,
  request,
  { connections, seconds, warmupSeconds, beforeRun = async () => undefined },
) {
  await fire(baseUrl, request, connections, warmupSeconds);
  await beforeRun();
  const result = await fire(baseUrl, request, connections, seconds);
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
  );
  const responses = Object.values(statusCounts).reduce((sum, count) => sum + count, 0);
  const good = statusCounts[String(request.expect)] ?? 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: responses,
    // errors include time-outs and socket errors; a request that got no response has no status.
    bad: responses - good + result.errors,
    errors: result.errors,
    statusCounts,
    connections,
    seconds,
  };
}
