// The HTTP server counts the requests it receives: the CLI gives memory back only after a time
// with none (longer than a scenario's longest delay, so no answer is still held then).
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

describe('createHttpServer: requests received', () => {
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

  it('counts each request as it comes, answered or held, and a refused one', async () => {
    expect(http.requestsReceived()).toBe(0);
    const answered = new Promise<number | undefined>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v1/pets', agent: false });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.end();
    });
    await until(() => held.length === 1);
    expect(http.requestsReceived()).toBe(1);
    held[0]?.end('{}');
    expect(await answered).toBe(200);
    // Without Host: refused with an Error body, and still a request received.
    const refused = new Promise<number | undefined>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v1/pets', agent: false });
      req.removeHeader('Host');
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.end();
    });
    expect(await refused).toBe(400);
    expect(http.requestsReceived()).toBe(2);
  });
});
