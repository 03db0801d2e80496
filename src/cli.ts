#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, helpText, loadConfig } from './config.js';
import { errorMessage } from './error-message.js';
import { packageRoot } from './paths.js';

function version(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';
}

/** Runs the command line; resolves with the exit code when the mock cannot start. */
async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const command = loadConfig(argv, env);
  if (command.kind === 'help') {
    console.log(helpText());
    return 0;
  }
  if (command.kind === 'version') {
    console.log(version());
    return 0;
  }
  const { config } = command;
  // Loaded only to run: --help, --version and a bad flag answer without pino, yaml, Ajv...
  const [{ createLogger }, { startServer }] = await Promise.all([
    import('./logger.js'),
    import('./server.js'),
  ]);
  const logger = createLogger(config.logLevel, process.stdout.isTTY);
  const server = await startServer(config, logger);
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(130); // a second signal: leave at once
    stopping = true;
    logger.info({ signal }, 'stopping');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  // Registered before the ready line, so a stop sent as soon as it appears is a clean one.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  logger.info(
    { url: server.apiUrl, pets: server.deps.sessions.default.store.size },
    `serving the Pet Store at ${server.apiUrl}`,
  );
  return -1;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    // Expected failures (bad flag, busy port, bad fixture) are one line; anything else too.
    const prefix =
      error instanceof ConfigError ? 'petstore-mock: ' : 'petstore-mock: cannot start: ';
    console.error(`${prefix}${errorMessage(error).split('\n')[0] ?? ''}`);
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  },
);
