#!/usr/bin/env node
// The bin, `petstore-mock`: first its V8 flags (src/cli/launch-flags.ts), then the command line
// itself (src/cli/main.ts), loaded only once the process runs with them.
import { enableCompileCache } from './cli/compile-cache.js';
import { relaunchWithLaunchFlags } from './cli/launch-flags.js';

const exitCode = await relaunchWithLaunchFlags();
if (exitCode === undefined) {
  enableCompileCache();
  const { runCommandLine } = await import('./cli/main.js');
  runCommandLine(process.argv.slice(2), process.env);
} else {
  process.exitCode = exitCode;
}
