/** One HTTP exchange with a server on the loopback, bounded in time and in the bytes kept. */
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';
import http from 'node:http';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Throws unless `url` names a loopback address: the harness talks to nothing else. */
export function assertLoopback(url) {
  const { hostname } = new URL(url);
  if (!/^127\.\d+\.\d+\.\d+$/.test(hostname) && hostname !== '[::1]' && hostname !== 'localhost') {
    throw new Error(`refusing to send requests to ${hostname}: loopback only`);
  }
}

/**
 * Sends `request` ({method, target, headers, body}) to `base` (an http URL whose path is prefixed
 * to the target). Resolves with {status, headers, body, ms} or {error} (timeout, reset, refused).
 */
export function send(base, request, timeoutMs) {
  assertLoopback(base);
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/$/, '');
  const started = performance.now();
  return new Promise((resolveExchange) => {
    let timer;
    const finish = (result) => {
      clearTimeout(timer);
      resolveExchange(result);
    };
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(request.body.length);
    let req;
    try {
      req = http.request(
        {
          host: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port,
          method: request.method,
          path: `${prefix}${request.target}`,
          headers,
          agent: false,
        },
        (res) => {
          const chunks = [];
          let size = 0;
          res.on('data', (chunk) => {
            size += chunk.length;
            if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          });
          res.on('end', () =>
            finish({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              truncated: size > MAX_BODY_BYTES,
              ms: performance.now() - started,
            }),
          );
          res.on('error', (error) => finish({ error: error.message }));
        },
      );
    } catch (error) {
      finish({ error: `the request cannot be sent: ${error.message}` });
      return;
    }
    timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error) => finish({ error: error.message }));
    req.end(request.body);
  });
}
