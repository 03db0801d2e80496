import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { ConfigError, loadConfig } from '../config/load-config.js';
import { helpText } from '../config/help.js';
import { FileError } from '../util/located-file.js';
import { errorMessage } from '../util/error-message.js';
import { packageRoot } from '../util/paths.js';
import { isSupervised } from './launch-flags.js';
import { isScriptShell, whenParentGone } from './script-shell.js';

function version(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';
}

/** Runs the command line; resolves with the exit code unless the mock is left serving (-1). */
async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parent = process.ppid;
  if (argv[0] === 'coverage') {
    // A client of a running mock: none of the server's modules are loaded.
    const { runCoverageCommand } = await import('./coverage-command.js');
    return runCoverageCommand(argv.slice(1), env, {
      out: (text) => process.stdout.write(text),
      err: (line) => {
        console.error(line);
      },
    });
  }
  if (argv[0] === 'resources') {
    const { runResourcesCommand } = await import('./resources-command.js');
    return runResourcesCommand(argv.slice(1), env, {
      out: (text) => process.stdout.write(text),
      err: (line) => {
        console.error(line);
      },
    });
  }
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
    import('../util/logger.js'),
    import('../server/start-server.js'),
  ]);
  const logger = createLogger(config.logLevel, process.stdout.isTTY);
  // What V8 runs with: the bin's launch flags (src/cli/launch-flags.ts), or the user's own.
  logger.debug(
    {
      nodeFlags: process.execArgv,
      heapLimitMiB: Math.round(getHeapStatistics().heap_size_limit / (1024 * 1024)),
    },
    'node flags',
  );
  const server = await startServer(config, logger);
  let stopping = false;
  const stop = (signal: 'SIGTERM' | 'SIGINT'): void => {
    // A second signal: leave at once, with the code of a process killed by that signal (128 + n).
    if (stopping) process.exit(128 + constants.signals[signal]);
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
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
  // Under `npm start` or npx, npm's shell ending is npm's signal that never came through (a
  // supervised bin's supervisor watches that shell itself).
  if (isScriptShell(env, parent) && !isSupervised(env)) {
    whenParentGone(parent, () => {
      if (stopping) return;
      logger.info({ parent }, "npm's shell is gone (npm was stopped): stopping as on SIGTERM");
      stop('SIGTERM');
    });
  }
  const { contract } = server.deps;
  const title =
    typeof contract.document.info.title === 'string' ? contract.document.info.title : 'API';
  logger.info(
    {
      url: server.apiUrl,
      operations: contract.operations.operations.length,
      // Pets are kept only where the contract has a Pet schema.
      ...(contract.hasSchema('Pet') && { pets: await server.deps.state.petCount() }),
    },
    `serving the ${title} at ${server.apiUrl}`,
  );
  return -1;
}

/** Runs the command line; sets the exit code when it ends, unless the mock is left serving. */
export function runCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  main(argv, env).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (error: unknown) => {
      // A bad setting or a file it cannot use is one line and exits 2, as a usage error; anything
      // else (busy port...) is one line too, and exits 1.
      const usage = error instanceof ConfigError || error instanceof FileError;
      const prefix = usage ? 'petstore-mock: ' : 'petstore-mock: cannot start: ';
      console.error(`${prefix}${errorMessage(error).split('\n')[0] ?? ''}`);
      process.exitCode = usage ? 2 : 1;
    },
  );
}
