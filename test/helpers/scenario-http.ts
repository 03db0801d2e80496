import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import type { Pet } from '../../src/state/pet.js';
import type { JournalEntry } from '../../src/state/request-journal.js';
import { AUTH } from './test-app.js';

import { asPet, asPets } from './http-matrix.js';

export { asPet, asPets, expectError } from './http-matrix.js';

/** GET /__admin/scenarios as tests read it back. */
export interface ScenarioListing {
  scenarios: { name: string; description: string; operations: string[]; everyOperation: boolean }[];
  active: { name: string; remaining: number | null } | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  throw new Error(`expected a string or null, got ${JSON.stringify(value)}`);
}

/** Narrows the body of GET /__admin/requests to its entries. */
export function asJournal(value: unknown): JournalEntry[] {
  if (!isRecord(value) || !Array.isArray(value.requests)) {
    throw new Error(`not a journal: ${JSON.stringify(value)}`);
  }
  return value.requests.map((item: unknown): JournalEntry => {
    if (
      !isRecord(item) ||
      typeof item.time !== 'string' ||
      typeof item.requestId !== 'string' ||
      typeof item.method !== 'string' ||
      typeof item.path !== 'string' ||
      typeof item.query !== 'string' ||
      !(item.status === null || typeof item.status === 'number') ||
      !Array.isArray(item.validationErrors)
    ) {
      throw new Error(`not a journal entry: ${JSON.stringify(item)}`);
    }
    const validationErrors = item.validationErrors.map((error: unknown) => {
      if (typeof error !== 'string') throw new Error(`not a string: ${JSON.stringify(error)}`);
      return error;
    });
    return {
      time: item.time,
      requestId: item.requestId,
      method: item.method,
      path: item.path,
      query: item.query,
      operationId: stringOrNull(item.operationId),
      status: item.status,
      scenario: stringOrNull(item.scenario),
      validationErrors,
    };
  });
}

/** Narrows the body of GET /__admin/scenarios. */
export function asScenarioListing(value: unknown): ScenarioListing {
  if (!isRecord(value) || !Array.isArray(value.scenarios)) {
    throw new Error(`not a scenario listing: ${JSON.stringify(value)}`);
  }
  const scenarios = value.scenarios.map((item: unknown) => {
    if (
      !isRecord(item) ||
      typeof item.name !== 'string' ||
      typeof item.description !== 'string' ||
      !Array.isArray(item.operations) ||
      typeof item.everyOperation !== 'boolean'
    ) {
      throw new Error(`not a scenario summary: ${JSON.stringify(item)}`);
    }
    const operations = item.operations.map((op: unknown) => String(op));
    const { name, description, everyOperation } = item;
    return { name, description, operations, everyOperation };
  });
  const { active } = value;
  if (active === null) return { scenarios, active: null };
  if (
    !isRecord(active) ||
    typeof active.name !== 'string' ||
    !(active.remaining === null || typeof active.remaining === 'number')
  ) {
    throw new Error(`not an active scenario: ${JSON.stringify(active)}`);
  }
  return { scenarios, active: { name: active.name, remaining: active.remaining } };
}

/** Headers for a pet API call, in a session if one is named. */
export function petHeaders(session?: string): Record<string, string> {
  return session === undefined ? { ...AUTH } : { ...AUTH, 'X-Mock-Session': session };
}

/** Headers for an admin call, in a session if one is named. */
export function sessionHeader(session?: string): Record<string, string> {
  return session === undefined ? {} : { 'X-Mock-Session': session };
}

/** Creates a pet through the API (201 expected) and returns it. */
export async function createPetVia(app: Express, name: string, session?: string): Promise<Pet> {
  const res = await request(app)
    .post('/v1/pets')
    .set(petHeaders(session))
    .send({ name, categoryId: 1 });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return asPet(res.body);
}

/** The names of every pet listed (limit 100) through the API. */
export async function listNames(app: Express, session?: string): Promise<string[]> {
  const res = await request(app).get('/v1/pets?limit=100').set(petHeaders(session));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return asPets(res.body).map((pet) => pet.name);
}

/** Switches a scenario on through the admin API (204 expected). */
export async function activate(
  app: Express,
  name: string,
  options: { times?: number; session?: string } = {},
): Promise<void> {
  const body = options.times === undefined ? { name } : { name, times: options.times };
  await request(app)
    .put('/__admin/scenario')
    .set(sessionHeader(options.session))
    .send(body)
    .expect(204);
}

/** What a real socket client saw: a response, or an error with no response. */
export type SocketOutcome =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: string }
  | { kind: 'error'; error: NodeJS.ErrnoException; sawResponse: boolean };

/**
 * Sends one request (a GET unless a JSON body is given, then a POST) over a real socket to the
 * app listening on 127.0.0.1 port 0; closes the server before resolving.
 */
export async function getOverSocket(
  app: Express,
  path: string,
  headers: Record<string, string>,
  jsonBody?: unknown,
): Promise<SocketOutcome> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  try {
    const address: AddressInfo | string | null = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const { port } = address;
    return await new Promise<SocketOutcome>((resolve) => {
      let sawResponse = false;
      const payload = jsonBody === undefined ? undefined : JSON.stringify(jsonBody);
      const options = {
        host: '127.0.0.1',
        port,
        path,
        agent: false,
        method: payload === undefined ? 'GET' : 'POST',
        headers:
          payload === undefined
            ? headers
            : {
                ...headers,
                'Content-Type': 'application/json',
                'Content-Length': String(Buffer.byteLength(payload)),
              },
      };
      const req = httpRequest(options, (res) => {
        sawResponse = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          resolve({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          resolve({ kind: 'error', error, sawResponse });
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        resolve({ kind: 'error', error, sawResponse });
      });
      req.end(payload);
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}
