/**
 * A tiny server for self-test/contract.yaml: each operation answers one known way, right or
 * deliberately wrong, and the credential and body operations answer 401 or 400 unless the
 * request was built exactly as the contract asks.
 */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { URL, URLSearchParams } from 'node:url';

const THING = { id: 1, name: 'one', created: '2026-01-01T00:00:00Z' };
const BASIC = `Basic ${Buffer.from('corpus-user:corpus-password').toString('base64')}`;

/** [status, headers, body] for each route; `req` is {url, headers, body, cookies}. */
const ROUTES = {
  'GET /good': () => json(200, THING, { 'x-rate': '5' }),
  'GET /wrong-type': () => json(200, { ...THING, id: 'one' }),
  'GET /wrong-status': () => json(418, THING),
  'GET /wrong-media': () => [200, { 'content-type': 'text/html' }, '<p>one</p>'],
  'GET /missing-header': () => json(200, THING),
  'GET /write-only-leak': () => json(200, { ...THING, secret: 's3cret' }),
  'GET /body-where-none': () => json(200, { note: 'none documented' }),
  'GET /crash': () => [500, {}, ''],
  'GET /rejects': () => [400, {}, ''],
  'GET /always-401': () => [401, {}, ''],
  'GET /silent': () => undefined,
  'GET /random': () => json(200, { ...THING, id: 1 + Math.floor(Math.random() * 1e9) }),
  'GET /things/{id}': () => [404, {}, ''],
  'POST /things': (req) => {
    const body = parseJson(req.body);
    const ok =
      typeof body?.id === 'number' && typeof body.name === 'string' && !('created' in body);
    return ok ? json(201, THING) : [400, {}, ''];
  },
  'GET /bearer': (req) => guarded(req.headers.authorization === 'Bearer corpus-token'),
  'GET /basic': (req) => guarded(req.headers.authorization === BASIC),
  'GET /query-key': (req) => guarded(req.url.searchParams.get('key') === 'corpus-key'),
  'GET /cookie-key': (req) =>
    guarded(req.cookies.session === 'corpus-key' && req.cookies.theme === 'dark'),
  'GET /and': (req) =>
    guarded(
      req.headers.authorization === 'Bearer corpus-token' &&
        req.url.searchParams.get('key') === 'corpus-key',
    ),
  'GET /or': (req) =>
    guarded(req.cookies.session === 'corpus-key' && req.headers.authorization === undefined),
  'POST /form': (req) => {
    const form = new URLSearchParams(req.body.toString('utf8'));
    const ok =
      req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
      form.getAll('tags').length >= 2 &&
      Number(form.get('count')) >= 3;
    return [ok ? 200 : 400, {}, ''];
  },
  'POST /upload': (req) => {
    const text = req.body.toString('utf8');
    const ok =
      String(req.headers['content-type']).startsWith('multipart/form-data; boundary=') &&
      /name="file"; filename="[^"]+"\r\nContent-Type: image\/png\r\n/.test(text) &&
      /name="note"\r\n\r\nhello\r\n/.test(text);
    return [ok ? 200 : 400, {}, ''];
  },
  'GET /styles/{ids}': (req) => {
    const ok =
      /^\/base\/styles\/\.[34]\.[34]/.test(req.url.pathname) &&
      req.url.searchParams.get('filter[color]') === 'red' &&
      /^t-[0-9]+$/.test(String(req.headers['x-trace']));
    return [ok ? 200 : 400, {}, ''];
  },
  'GET /impossible': () => [200, {}, ''],
  'GET /pair': (req) => (req.url.pathname.includes('#') ? [400, {}, ''] : json(200, THING)),
  'GET /xml': () => [
    200,
    { 'content-type': 'application/xml' },
    '<Thing><id>1</id><name>one</name></Thing>',
  ],
};

function json(status, value, headers = {}) {
  return [status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value)];
}

function guarded(allowed) {
  return allowed ? json(200, THING) : [401, {}, ''];
}

function parseJson(body) {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function routeOf(method, pathname) {
  const path = pathname.replace(/^\/base/, '');
  if (/^\/things\/[^/]+$/.test(path)) return `${method} /things/{id}`;
  if (/^\/styles\/[^/]+$/.test(path)) return `${method} /styles/{ids}`;
  return `${method} ${path}`;
}

function cookiesOf(header) {
  return Object.fromEntries(
    String(header ?? '')
      .split(';')
      .map((pair) => pair.trim().split('='))
      .filter(([name]) => name !== '')
      .map(([name, value = '']) => [name, decodeURIComponent(value)]),
  );
}

/** Starts the fake on a free loopback port; resolves as startMock does for a running mock. */
export async function startFakeServer() {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const route = ROUTES[routeOf(request.method, url.pathname)];
      const req = {
        url,
        headers: request.headers,
        body: Buffer.concat(chunks),
        cookies: cookiesOf(request.headers.cookie),
      };
      const answer = route === undefined ? [599, {}, 'no such route in the fake'] : route(req);
      if (answer === undefined) return; // never answers: the harness must time out
      const [status, headers, body] = answer;
      response.writeHead(status, headers).end(body);
    });
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/base`,
    startMs: 0,
    rssMiB: () => 0,
    errorLines: [],
    exited: () => undefined,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolveClose) => server.close(resolveClose));
    },
  };
}
