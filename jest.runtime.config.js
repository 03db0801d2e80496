// `npm run test:runtime`: the tests whose outcome can differ from one Node to another, run by
// .ci/run on the machine's own Node (20) after the whole suite ran on Node 24. What they share:
// a Node process of the built package, where the launcher differs (Node 20 supervises a child,
// 22.15+ and 24 replace the process with execve) and so do module loading and signals. The rest
// of the suite runs in-process on code no runtime tells apart.
import base from './jest.config.js';

/** The tests that differ by runtime, each for its reason. */
const BY_RUNTIME = [
  // The launcher itself: its flags, and one process or two.
  'test/unit/launch-flags',
  'test/integration/launch-flags',
  // The bin as users start it: options, exit codes, and the coverage and contract commands.
  'test/integration/cli',
  'test/integration/coverage-cli',
  'test/integration/contract-cli',
  // Signals through the launcher; the --db lock held by the pid that serves.
  'test/integration/shutdown',
  'test/integration/db-stop',
  // The README's and the docs' commands, and the packed package's ESM and CommonJS entries.
  'test/integration/docs',
  'test/integration/package',
  // What a fresh node loads from dist/ (ioredis only with --state-url).
  'test/integration/redis-client-loading',
];

const memory = base.projects.find((project) => project.displayName === 'memory');
if (memory === undefined) throw new Error('jest.config.js has no memory project');

/** @type {import('jest').Config} */
export default {
  ...memory,
  testMatch: BY_RUNTIME.map((path) => `<rootDir>/${path}.test.ts`),
};
