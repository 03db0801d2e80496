import type { Express } from 'express';
import request from 'supertest';
import type { CoverageReport } from '../../src/state/coverage-report.js';
import { readCoverageReport } from '../../src/cli/read-coverage-report.js';
import { sessionHeader } from './scenario-http.js';

/** GET /__admin/coverage (200 expected), in a session if one is named, read as a report. */
export async function coverageOf(app: Express, session?: string): Promise<CoverageReport> {
  const res = await request(app).get('/__admin/coverage').set(sessionHeader(session));
  if (res.status !== 200) throw new Error(`coverage failed: ${res.status} ${res.text}`);
  return readCoverageReport(res.body);
}

/** The counts of one operation's statuses, as `{ '200': [count, forced] }`, for short assertions. */
export function countsOf(
  report: CoverageReport,
  operationId: string,
): Record<string, [number, number]> {
  const op = report.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the report`);
  return Object.fromEntries(
    Object.entries(op.statuses).map(([status, s]) => [status, [s.count, s.forced]]),
  );
}
