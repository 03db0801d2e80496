import request from 'supertest';
import { startMockServer } from '../../src/index.js';
import type { Proxy } from '../../src/proxy/proxy.js';
import { expectError } from '../helpers/http-matrix.js';
import { captureLogger, AUTH, createTestApp } from '../helpers/test-app.js';
import {
  closedPortUrl,
  json,
  proxyTo,
  scriptedTlsUpstream,
  silentUpstream,
  type LocalUpstream,
} from '../helpers/upstream.js';
import { backendOptions } from '../helpers/state-backend.js';

// The real service down, silent or with a certificate nobody vouches for: always a quick 502
// upstream_unreachable with the reason, never a hang and never a stack trace. Loopback only.

/** Generous: the point is that the answer comes, and long before the default 10 s. */
const FAST_MS = 5000;

let proxy: Proxy | undefined;
let upstream: LocalUpstream | undefined;

afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  proxy = undefined;
  upstream = undefined;
});

describe('proxy mode: a real service that cannot be reached', () => {
  it('never answering: 502 upstream_unreachable after --proxy-timeout', async () => {
    upstream = await silentUpstream();
    proxy = await proxyTo(upstream.url, { proxyTimeout: 200 });
    const { app, state } = await createTestApp({ pets: [], proxy });
    const started = Date.now();
    const res = await request(app).get('/v1/pets').set(AUTH);
    const elapsed = Date.now() - started;
    const body = expectError(res, 502, 'upstream_unreachable');
    expect(body.message).toContain('no answer within 200 ms');
    expect(body.message).toContain(upstream.url);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(FAST_MS);
    expect((await state.journal(undefined, 1))[0]?.status).toBe(502);
  });

  it('answering headers, then never the rest of the body: the same 502, in the same time', async () => {
    upstream = await silentUpstream(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[',
    );
    proxy = await proxyTo(upstream.url, { proxyTimeout: 200 });
    const { app } = await createTestApp({ pets: [], proxy });
    const started = Date.now();
    const res = await request(app).get('/v1/pets').set(AUTH);
    expect(expectError(res, 502, 'upstream_unreachable').message).toContain('within 200 ms');
    expect(Date.now() - started).toBeLessThan(FAST_MS);
  });

  it('a client that gives up: its request to the real service is dropped too', async () => {
    const silent = await silentUpstream();
    upstream = silent;
    proxy = await proxyTo(silent.url, { proxyTimeout: 60_000 });
    const { app } = await createTestApp({ pets: [], proxy });
    await expect(request(app).get('/v1/pets').set(AUTH).timeout(300)).rejects.toThrow(/Timeout/);
    const deadline = Date.now() + FAST_MS;
    while (silent.openConnections() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(silent.openConnections()).toBe(0);
  });

  it('a closed port: 502 upstream_unreachable, connection refused', async () => {
    proxy = await proxyTo(await closedPortUrl());
    const { app } = await createTestApp({ pets: [], proxy });
    const started = Date.now();
    const res = await request(app).post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 });
    expect(expectError(res, 502, 'upstream_unreachable').message).toContain(
      'connection refused (ECONNREFUSED)',
    );
    expect(Date.now() - started).toBeLessThan(FAST_MS);
  });

  it('strict or not, the same 502', async () => {
    proxy = await proxyTo(await closedPortUrl(), { proxyStrict: true });
    const { app } = await createTestApp({ pets: [], proxy });
    expectError(await request(app).get('/v1/pets/1').set(AUTH), 502, 'upstream_unreachable');
  });
});

describe('proxy mode over https', () => {
  const PETS = json(200, [{ id: 1, name: 'Rex', categoryId: 1 }]);

  it('verifies the certificate by default: a self-signed one is a 502 naming it', async () => {
    upstream = await scriptedTlsUpstream(PETS);
    proxy = await proxyTo(upstream.url);
    const { app } = await createTestApp({ pets: [], proxy });
    const res = await request(app).get('/v1/pets').set(AUTH);
    expect(expectError(res, 502, 'upstream_unreachable').message).toContain(
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    );
    expect(upstream.received).toEqual([]);
  });

  it('with --proxy-insecure, accepts it (and says so at start)', async () => {
    upstream = await scriptedTlsUpstream(PETS);
    const { logger, lines } = captureLogger();
    const mock = await startMockServer({
      ...backendOptions(),
      proxyTarget: upstream.url,
      proxyInsecure: true,
      logger,
    });
    try {
      const res = await fetch(`${mock.url}/pets`, { headers: AUTH });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(PETS.body);
      const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
      expect(warnings).toContainEqual(expect.stringContaining('--proxy-insecure'));
    } finally {
      await mock.close();
    }
  });
});

describe('proxy mode at start', () => {
  it('refuses a target that is not a base address ending in /v1', async () => {
    await expect(startMockServer({ proxyTarget: 'http://127.0.0.1:9/api' })).rejects.toThrow(
      /--proxy-target .* ending in \/v1/,
    );
  });
});
