/**
 * Bring your own contract, 2: security. Each operation asks for what its `security` (or the
 * document's) says: http bearer, basic and other schemes, API keys in a header, the query or a
 * cookie, OAuth 2 and OpenID Connect as bearer tokens; OR between requirements, AND within one.
 * A refusal is a 401 whose WWW-Authenticate names every scheme accepted, in the error shape the
 * contract documents for it.
 */
import type { Express } from 'express';
import request from 'supertest';
import { expectError } from '../helpers/http-matrix.js';
import { loadOwn, ownApp, record } from '../helpers/own-contract.js';
import { createTestApp } from '../helpers/test-app.js';

const vault = loadOwn('security', 'schemes.yaml');

const basic = (credentials: string): string =>
  `Basic ${Buffer.from(credentials).toString('base64')}`;

const CHALLENGES = {
  bearer: 'Bearer realm="petstore"',
  basic: 'Basic realm="petstore"',
  digest: 'Digest realm="petstore"',
  headerKey: 'ApiKey realm="petstore", in="header", name="X-API-Key"',
  queryKey: 'ApiKey realm="petstore", in="query", name="api_key"',
  cookieKey: 'ApiKey realm="petstore", in="cookie", name="vault_session"',
} as const;

/** An operation of schemes.yaml, a request that satisfies it, and its 401's challenge. */
interface Case {
  path: string;
  query?: string;
  headers: Record<string, string>;
  challenge: string;
}

const SCHEMES: readonly (readonly [string, Case])[] = [
  [
    'http bearer (the document-wide requirement)',
    {
      path: '/bearer',
      headers: { Authorization: 'Bearer eyJhbGciOi.x.y' },
      challenge: CHALLENGES.bearer,
    },
  ],
  [
    'http basic',
    {
      path: '/basic',
      headers: { Authorization: basic('ada:lovelace') },
      challenge: CHALLENGES.basic,
    },
  ],
  [
    'another http scheme (digest)',
    {
      path: '/digest',
      headers: { Authorization: 'Digest username="ada", nonce="dcd98b", response="6629fae4"' },
      challenge: CHALLENGES.digest,
    },
  ],
  [
    'an API key in a header',
    { path: '/header-key', headers: { 'X-API-Key': 'k-123' }, challenge: CHALLENGES.headerKey },
  ],
  [
    'an API key in the query',
    { path: '/query-key', query: 'api_key=k-123', headers: {}, challenge: CHALLENGES.queryKey },
  ],
  [
    'an API key in a cookie',
    {
      path: '/cookie-key',
      headers: { Cookie: 'theme=dark; vault_session=k-123' },
      challenge: CHALLENGES.cookieKey,
    },
  ],
  [
    'oauth2, as a bearer token',
    { path: '/oauth', headers: { Authorization: 'Bearer access-1' }, challenge: CHALLENGES.bearer },
  ],
  [
    'openIdConnect, as a bearer token',
    { path: '/oidc', headers: { Authorization: 'Bearer id-1' }, challenge: CHALLENGES.bearer },
  ],
];

function call(app: Express, { path, query }: Pick<Case, 'path' | 'query'>) {
  return request(app).get(`/vault${path}${query === undefined ? '' : `?${query}`}`);
}

describe('each kind of scheme', () => {
  it.each(SCHEMES)(
    '%s: accepted when sent; missing → 401 challenging for it',
    async (_label, scheme) => {
      const { app } = await ownApp(vault);
      const res = await call(app, scheme).set(scheme.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ open: true });
      const refused = await call(app, { path: scheme.path });
      expectError(refused, 401, 'unauthorized');
      expect(refused.headers['www-authenticate']).toBe(scheme.challenge);
    },
  );
});

describe('malformed credentials are refused', () => {
  const MALFORMED: readonly (readonly [string, string, Record<string, string>])[] = [
    ['basic that is not base64', '/basic', { Authorization: 'Basic ada:lovelace' }],
    ['basic without a colon', '/basic', { Authorization: basic('ada') }],
    ['a bearer token where basic is asked', '/basic', { Authorization: 'Bearer t' }],
    ['basic where a bearer token is asked', '/bearer', { Authorization: basic('ada:x') }],
    ['an empty bearer token', '/bearer', { Authorization: 'Bearer ' }],
    ['the digest scheme with no credentials', '/digest', { Authorization: 'Digest' }],
    ['a blank API key', '/header-key', { 'X-API-Key': ' ' }],
    ['the API key in another header', '/header-key', { 'X-Api-Token': 'k-123' }],
    ['the API key under another cookie', '/cookie-key', { Cookie: 'session=k-123' }],
  ];

  it.each(MALFORMED)('%s → 401', async (_label, path, headers) => {
    const { app } = await ownApp(vault);
    const res = await call(app, { path }).set(headers);
    expectError(res, 401, 'unauthorized');
  });

  it('the message says how to send basic credentials', async () => {
    const { app } = await ownApp(vault);
    const res = await call(app, { path: '/basic' }).set({ Authorization: basic('ada') });
    expect(expectError(res, 401, 'unauthorized').message).toContain('user:password');
  });

  it('the message names the API key and where it goes', async () => {
    const { app } = await ownApp(vault);
    const res = await call(app, { path: '/query-key' });
    expect(expectError(res, 401, 'unauthorized').message).toContain('api_key');
  });
});

describe('requirements: OR between them, AND within one, none for a public operation', () => {
  it('either of two requirements lets a request through', async () => {
    const { app } = await ownApp(vault);
    await call(app, { path: '/either' }).set('X-API-Key', 'k').expect(200);
    await call(app, { path: '/either' }).set('Authorization', basic('ada:x')).expect(200);
  });

  it('neither: 401 challenging for each, in the order written', async () => {
    const { app } = await ownApp(vault);
    const res = await call(app, { path: '/either' });
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe(`${CHALLENGES.headerKey}, ${CHALLENGES.basic}`);
  });

  it('one requirement of two schemes needs both', async () => {
    const { app } = await ownApp(vault);
    const bearer = { Authorization: 'Bearer t' };
    expectError(await call(app, { path: '/both' }).set('X-API-Key', 'k'), 401, 'unauthorized');
    expectError(await call(app, { path: '/both' }).set(bearer), 401, 'unauthorized');
    const res = await call(app, { path: '/both' });
    expect(res.headers['www-authenticate']).toBe(`${CHALLENGES.headerKey}, ${CHALLENGES.bearer}`);
    await call(app, { path: '/both' }).set(bearer).set('X-API-Key', 'k').expect(200);
  });

  it('`security: []` is public, whatever a request sends', async () => {
    const { app } = await ownApp(vault);
    await call(app, { path: '/public' }).expect(200);
    await call(app, { path: '/public' }).set('Authorization', 'Nonsense').expect(200);
  });
});

describe('with apiKeys set', () => {
  const keys = { apiKeys: ['k-good'] };

  it('bearer tokens (oauth2 and openIdConnect too) must be among them', async () => {
    const { app } = await ownApp(vault, keys);
    for (const path of ['/bearer', '/oauth', '/oidc']) {
      await call(app, { path }).set('Authorization', 'Bearer k-good').expect(200);
      const res = await call(app, { path }).set('Authorization', 'Bearer k-bad');
      expectError(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="petstore", error="invalid_token"',
      );
    }
  });

  it('API key values must be among them, wherever they are sent', async () => {
    const { app } = await ownApp(vault, keys);
    await call(app, { path: '/header-key' }).set('X-API-Key', 'k-good').expect(200);
    expectError(
      await call(app, { path: '/header-key' }).set('X-API-Key', 'k-bad'),
      401,
      'unauthorized',
    );
    await call(app, { path: '/query-key', query: 'api_key=k-good' }).expect(200);
    expectError(
      await call(app, { path: '/query-key', query: 'api_key=k-bad' }),
      401,
      'unauthorized',
    );
    await call(app, { path: '/cookie-key' }).set('Cookie', 'vault_session=k-good').expect(200);
    expectError(
      await call(app, { path: '/cookie-key' }).set('Cookie', 'vault_session=k-bad'),
      401,
      'unauthorized',
    );
  });

  it('basic and other http credentials are not keys: any well-formed one passes', async () => {
    const { app } = await ownApp(vault, keys);
    await call(app, { path: '/basic' }).set('Authorization', basic('ada:x')).expect(200);
    await call(app, { path: '/digest' }).set('Authorization', 'Digest username="a"').expect(200);
  });
});

describe("the 401's body, in the shape the contract documents for it", () => {
  const ledger = loadOwn('security', 'error-shapes.yaml');

  it("the mock's {code, message, status} where the documented schema takes it", async () => {
    const { app } = await ownApp(ledger);
    const res = await request(app).get('/ledger/mock-shaped');
    expectError(res, 401, 'unauthorized');
    expect(res.headers['x-mock-error']).toBeUndefined();
  });

  it("the mock's {code, message, status} where the operation documents no 401", async () => {
    const { app } = await ownApp(ledger);
    const res = await request(app).get('/ledger/undocumented');
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe(CHALLENGES.bearer);
  });

  it("the contract's own example otherwise, the mock's message in X-Mock-Error", async () => {
    const { app } = await ownApp(ledger);
    const res = await request(app).get('/ledger/oauth-shaped');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      error: 'invalid_token',
      error_description: 'The access token expired.',
    });
    expect(res.headers['x-mock-error']).toMatch(/Bearer/);
    expect(res.headers['www-authenticate']).toBe(CHALLENGES.bearer);
  });

  it("data generated from the contract's 401 schema where it has no example", async () => {
    const { app } = await ownApp(ledger);
    const res = await request(app).get('/ledger/generated-shape');
    expect(res.status).toBe(401);
    const body = record(res.body);
    expect(Object.keys(body).sort()).toEqual(['errorId', 'reason']);
    expect(body.errorId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(['expired', 'revoked', 'missing']).toContain(body.reason);
    expect(res.headers['x-mock-error']).toEqual(expect.any(String));
  });
});

describe('a request that matches no operation', () => {
  it("asks for the document's security (401 before 404)", async () => {
    const { app } = await ownApp(vault);
    const res = await request(app).get('/vault/nowhere');
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe(CHALLENGES.bearer);
    const found = await request(app).get('/vault/nowhere').set('Authorization', 'Bearer t');
    expectError(found, 404, 'not_found');
  });

  it('without one, for the security all operations share', async () => {
    const { app } = await ownApp(loadOwn('security', 'unmatched-shared.yaml'));
    const res = await request(app).get('/archive/nowhere');
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe(CHALLENGES.basic);
    const found = await request(app).get('/archive/nowhere').set('Authorization', basic('a:b'));
    expectError(found, 404, 'not_found');
  });

  it('where operations differ, for nothing: a plain 404', async () => {
    const { app } = await ownApp(loadOwn('security', 'unmatched-mixed.yaml'));
    expectError(await request(app).get('/kiosk/nowhere'), 404, 'not_found');
  });
});

describe('the packaged Pet Store', () => {
  it('still asks for a bearer token, with its own challenge and message', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets');
    const body = expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe(CHALLENGES.bearer);
    expect(body.message).toBe('Missing API key: send it as "Authorization: Bearer <token>".');
  });
});
