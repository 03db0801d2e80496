#!/usr/bin/env node
// The bin, `petstore-mock`: the command line itself is src/cli/main.ts.
import { runCommandLine } from './cli/main.js';

runCommandLine(process.argv.slice(2), process.env);
