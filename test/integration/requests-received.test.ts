// The HTTP server counts the requests it receives, answered or not: the reload test waits on that
// count to know a request has arrived before it changes the files.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:http';
import { loadConfig } from '../../src/config/load-config.js';
import { createHttpServer, type HttpServer } from '../../src/server/create-http-server.js';
import { eventually } from '../helpers/raw-socket.js';
import { captureLogger } from '../helpers/test-app.js';

/** The status of one GET /v1/pets on a fresh connection, sent without Host if asked. */
function statusOf(port: number, { withoutHost = false } = {}): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/pets', agent: false });
    if (withoutHost) req.removeHeader('Host');
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.end();
  });
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
    http = createHttpServer(app, command.config, captureLogger().logger);
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
    const answered = statusOf(port);
    expect(await eventually(() => held.length === 1, 2000)).toBe(true);
    expect(http.requestsReceived()).toBe(1);
    held[0]?.end('{}');
    expect(await answered).toBe(200);
    // Without Host: refused with an Error body, and still a request received.
    const refused = statusOf(port, { withoutHost: true });
    expect(await refused).toBe(400);
    expect(http.requestsReceived()).toBe(2);
  });
});
