/**
 * System (b): the mock's own app from dist/, built like startServer builds it but with
 * `validation: 'off'`, to measure what contract validation costs. Takes the CLI's flags (e.g.
 * --seed 1 --count 100000); logs nothing; listens on --port (0 unless given) and prints `PORT <n>`.
 */
import console from 'node:console';
import { createServer } from 'node:http';
import process from 'node:process';
import { createApp } from '../../dist/api/app.js';
import { loadConfig } from '../../dist/config/load-config.js';
import { loadMock } from '../../dist/server/load-mock.js';
import { createLogger } from '../../dist/util/logger.js';

// The environment is left out so that only the flags the runner passes count.
const command = loadConfig(['--port', '0', ...process.argv.slice(2)], {});
if (command.kind !== 'run') throw new Error('expected the flags of a run');
const { config } = command;

const deps = await loadMock(config, createLogger('silent', false));
const server = createServer(createApp({ ...deps, validation: 'off' }));

server.listen(config.port, config.host, () => {
  const address = server.address();
  console.log(`PORT ${typeof address === 'object' && address !== null ? address.port : ''}`);
});
