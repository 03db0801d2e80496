// The HTTP server counts requests received and not yet answered (the CLI gives memory back only
// when none is open: a delayed answer must not wait out a full collection).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { createHttpServer, type HttpServer } from '../../src/connections/create-http-server.js';
import { captureLogger } from '../helpers/test-app.js';

/** Resolves once `check` holds, polling every 5 ms (at most 2 s). */
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 2000) throw new Error('condition not reached in 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('createHttpServer: open requests', () => {
  let http: HttpServer;
  let port: number;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    const command = loadConfig(['--log-level', 'silent'], {});
    if (command.kind !== 'run') throw new Error('expected a run');
    // An app that holds every answer until the test ends it, as a scenario's delay does.
    const app = (_req: IncomingMessage, res: ServerResponse): void => {
      held.push(res);
    };
    http = createHttpServer(app, command.config.connections, captureLogger().logger);
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    const address = http.server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    port = address.port;
  });

  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.server.close(resolve));
    http.dispose();
  });

  function send(): ReturnType<typeof request> {
    const req = request({ host: '127.0.0.1', port, path: '/v1/pets', agent: false });
    req.on('error', () => undefined); // the aborted one
    req.end();
    return req;
  }

  it('counts a held request until it is answered, the client gone or not', async () => {
    expect(http.openRequests()).toBe(0);
    const answered = new Promise<number | undefined>((resolve) => {
      send().on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
    });
    const cut = send();
    await until(() => held.length === 2);
    expect(http.openRequests()).toBe(2);
    held[0]?.end('{}');
    expect(await answered).toBe(200);
    await until(() => http.openRequests() === 1);
    // Half-open connections are allowed (a client may end its side and wait for the answer), so
    // a client that goes away leaves its request open until the answer is written.
    cut.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(http.openRequests()).toBe(1);
    held[1]?.end('{}');
    await until(() => http.openRequests() === 0);
    expect(http.openRequests()).toBe(0);
  });
});
