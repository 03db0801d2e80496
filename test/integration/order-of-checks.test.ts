import type { Express } from 'express';
import request from 'supertest';
import { isRecord } from '../../src/util/is-record.js';
import { expectError, somePets } from '../helpers/http-matrix.js';
import { AUTH, createTestApp } from '../helpers/test-app.js';
import { closedPortUrl, proxyTo } from '../helpers/upstream.js';

/** The names of a router's steps, in order, with each mounted router's steps nested. */
function stepsOf(stack: unknown): (string | { router: unknown })[] {
  if (!Array.isArray(stack)) throw new Error('not a router stack');
  return stack.map((layer: unknown) => {
    if (!isRecord(layer) || typeof layer.name !== 'string') throw new Error('not a layer');
    const handle = layer.handle;
    return typeof handle === 'function' && 'stack' in handle
      ? { router: stepsOf(handle.stack) }
      : layer.name;
  });
}

function stepsOfApp(app: Express): unknown {
  return stepsOf(app.router.stack);
}

/** express-openapi-validator's own steps, named by it: requests, then a hook on res.json. */
const VALIDATOR = [
  'pathParamsMiddleware',
  'metadataMiddleware',
  'securityMiddleware',
  'requestMiddleware',
  'responseMiddleware',
];

/** The pet API's steps before the one that answers. */
const PET_API = [
  'noticeDeprecation',
  'recordCall',
  'authenticate',
  'attachSession',
  'findOperation',
  'requireUtf8',
  'textParser',
  'parseJsonExactly',
  'readBody',
  'checkQuery',
  'readStyledPath',
  'readCookies',
  'checkAccept',
  'checkBodyType',
  'answerHeadAsGet',
  ...VALIDATOR,
  'applyScenarios',
];

describe('the order of checks: one list of named steps in app.ts', () => {
  it('is request id and log, nosniff, CORS, QA console, admin API, pet API, JSON 404, error handler', async () => {
    const { app } = await createTestApp();
    expect(stepsOfApp(app)).toEqual([
      'logRequest',
      'noSniff',
      'corsMiddleware',
      'serveConsole',
      {
        router: [
          'authenticateAdmin',
          'jsonParser',
          'validateContract',
          { router: expect.any(Array) as unknown },
        ],
      },
      { router: [...PET_API, 'answerOperation'] },
      'answerNotFound',
      'handleError',
    ]);
  });

  it('in proxy mode, has forwardToUpstream in the place of the handlers, and hears breaches', async () => {
    const proxy = await proxyTo(await closedPortUrl());
    try {
      const { app } = await createTestApp({ proxy });
      const steps = stepsOfApp(app);
      // The validator is one per contract in the process (http/contract-validator.ts): this
      // app's judge of relayed answers goes with each request, in the step before it.
      const validated = PET_API.indexOf(VALIDATOR[0] ?? '');
      expect(Array.isArray(steps) ? steps[5] : undefined).toEqual({
        router: [
          ...PET_API.slice(0, validated),
          'hearBreaches',
          ...PET_API.slice(validated),
          'forwardToUpstream',
        ],
      });
    } finally {
      await proxy.close();
    }
  });

  it('has no admin API and no QA console with noAdmin (--no-admin)', async () => {
    const { app } = await createTestApp({ noAdmin: true });
    const steps = stepsOfApp(app);
    expect(Array.isArray(steps) ? steps.length : 0).toBe(6);
    expect(steps).not.toContain('serveConsole');
  });
});

describe('auth comes before everything a request could be refused for', () => {
  it('33 query parameters without credentials → 401, not 400', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const query = Array.from({ length: 33 }, (_, i) => `p${i}=1`).join('&');
    expectError(await request(app).get(`/v1/pets?${query}`), 401, 'unauthorized');
    const res = await request(app).get(`/v1/pets?${query}`).set(AUTH);
    expect(expectError(res, 400, 'bad_request').message).toContain('Too many query parameters');
  });

  it.each([
    ['an unknown path', (app: Express) => request(app).get('/v1/nothing')],
    ['a wrong method', (app: Express) => request(app).delete('/v1/pets')],
    ['a malformed body', (app: Express) => request(app).post('/v1/pets').type('json').send('{')],
    ['Accept: text/html', (app: Express) => request(app).get('/v1/pets').accept('text/html')],
    ['an unknown query parameter', (app: Express) => request(app).get('/v1/pets?limt=5')],
  ])('%s without credentials → 401', async (_label, send) => {
    const { app } = await createTestApp({ pets: somePets(3) });
    expectError(await send(app), 401, 'unauthorized');
  });
});

describe('the route is decided before any body is read', () => {
  it('POST /v1/nothing with the body `{` → 404, not 400', async () => {
    const { app, state } = await createTestApp({ pets: somePets(3) });
    const res = await request(app).post('/v1/nothing').set(AUTH).type('json').send('{');
    expectError(res, 404, 'not_found');
    expect(await state.petCount()).toBe(3);
  });

  it('DELETE /v1/pets with the body `{` → 405 with Allow, not 400', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await request(app).delete('/v1/pets').set(AUTH).type('json').send('{');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, POST, HEAD');
  });

  it('a body over the limit on an unknown path → 404, the body never read', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const res = await request(app)
      .post('/v1/nothing')
      .set(AUTH)
      .send({ name: 'x'.repeat(200 * 1024) });
    expectError(res, 404, 'not_found');
  });
});

describe('the checks the validator cannot make come before it, and decide first', () => {
  it('a missing create body → 400 bad_request (the contract), not the validator’s 415', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    expectError(await request(app).post('/v1/pets').set(AUTH), 400, 'bad_request');
  });

  it('HEAD is answered like GET, headers and all, with no body', async () => {
    const { app } = await createTestApp({ pets: somePets(3) });
    const get = await request(app).get('/v1/pets/1').set(AUTH);
    const head = await request(app).head('/v1/pets/1').set(AUTH);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.deprecation).toBe(get.headers.deprecation);
    expect(head.text).toBeFalsy();
  });
});
