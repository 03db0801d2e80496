#!/usr/bin/env node
// The bin, `petstore-mock`: first its V8 flags (src/cli/launch-flags.ts), then the command line
// itself (src/cli/main.ts), loaded only once the process runs with them.
import { enableCompileCache } from './cli/compile-cache.js';
import { relaunchWithLaunchFlags } from './cli/launch-flags.js';
import { errorMessage } from './util/error-message.js';

let exitCode: number | undefined;
try {
  exitCode = await relaunchWithLaunchFlags();
} catch (error) {
  // The relaunch itself failed (spawn refused): one line, as any other failure to start.
  console.error(`petstore-mock: cannot start: ${errorMessage(error).split('\n')[0] ?? ''}`);
  exitCode = 1;
}
if (exitCode === undefined) {
  enableCompileCache();
  const { runCommandLine } = await import('./cli/main.js');
  runCommandLine(process.argv.slice(2), process.env);
} else {
  process.exitCode = exitCode;
}
