/** The systems under test, each a separate server process, and how to start one. */
import { performance } from 'node:perf_hooks';
import { cpuMs, spawnNodeServer } from './children.js';
import { freePort, printedPort, statusOf, waitFor200 } from './http-probe.js';

export const AUTH = { Authorization: 'Bearer bench' };

/** Generous: seeding 100k pets takes a while, and so may Prism on a busy machine. */
const START_TIMEOUT_MS = 120_000;

/** Prism's arguments, without its logging level. */
function prismArgs(prismEntry, port) {
  return [prismEntry, 'mock', '-h', '127.0.0.1', '-p', String(port), '--errors=false'];
}

/**
 * The bin's V8 launch flags, read from the build when a system starts: this module is loaded
 * before the bench builds dist/ (on a fresh clone there is none yet).
 */
async function launchFlags() {
  const { LAUNCH_FLAGS } = await import('../../dist/cli/launch-flags.js');
  return LAUNCH_FLAGS.map(({ flag }) => flag);
}

/**
 * The systems, in the order of the report's columns. key: one letter per system, as in issue 10
 * (a–f), g for the validated stack's ceiling, and `c20`/`e20` for c and e on Node 20. column: the short label of tables. node: the
 * binary the server runs on; runtime: its version. basePath: where the pet API is served (Prism
 * serves the document's paths without the servers' /v1). `args(port)`: node's arguments (or a
 * promise of them); `printsPort`: listens on port 0 and prints `PORT <n>`, else listens on the given port.
 * `dataFlags`: takes the CLI's data flags. `optional`: a peer that may fail to start (noted in the
 * report); the others failing is fatal. `logFile`: where the server's output goes instead of a
 * pipe (see spawnNodeServer). `unavailable`: why the system cannot run here. `resetPath`: where
 * the mock puts its store back to its start (the admin API), for a system that keeps what it is
 * sent.
 *
 * runtimes: `{ node24, node20 }`, each `{ path, version }` or `{ unavailable }` (node20 only);
 * prism: `{ entry }` or `{ unavailable }` (see prism.js).
 */
export function defineSystems({ runtimes, prism, prismLogFile }) {
  const on24 = { node: runtimes.node24.path, runtime: runtimes.node24.version };
  const on20 = {
    node: runtimes.node20.path,
    runtime: runtimes.node20.version,
    node20: true,
    unavailable: runtimes.node20.unavailable,
  };
  const bareHttp = {
    label: "bare node:http serving pre-serialized bodies (the machine's ceiling)",
    basePath: '/v1',
    printsPort: true,
    args: () => ['bench/servers/bare.js'],
  };
  const bareExpress = {
    label:
      "bare Express 5: the same list and pet, 201 for create via express.json (the stack's ceiling)",
    basePath: '/v1',
    printsPort: true,
    args: () => ['bench/servers/bare-express.js'],
  };
  const validatedExpress = {
    label:
      "Express 5 + express-openapi-validator alone: e behind the validator, with the pet API's options, and none of the mock's own steps (the validated stack's ceiling), on the app's V8 launch flags",
    basePath: '/v1',
    printsPort: true,
    // The app's own flags, so that g's memory is the floor of the app's.
    args: async () => [...(await launchFlags()), 'bench/servers/express-validated.js'],
  };
  const shipped = {
    label: 'the app as shipped: `dist/cli.js --log-level silent`',
    basePath: '/v1',
    resetPath: '/__admin/reset',
    dataFlags: true,
    args: (port) => ['dist/cli.js', '--port', String(port), '--log-level', 'silent'],
  };
  const prismSystem = {
    basePath: '',
    optional: true,
    unavailable: prism.unavailable,
  };
  return [
    { key: 'a', column: 'a node:http', ...on24, ...bareHttp },
    { key: 'e', column: 'e Express', ...on24, ...bareExpress },
    { key: 'g', column: 'g Express + e-o-v', ...on24, ...validatedExpress },
    { key: 'c', column: 'c shipped', ...on24, ...shipped },
    {
      key: 'b',
      column: 'b no validation',
      label:
        "the app with validation 'off' (createApp from dist/, bench/servers/app-no-validation.js)",
      ...on24,
      basePath: '/v1',
      resetPath: '/__admin/reset',
      printsPort: true,
      dataFlags: true,
      args: () => ['bench/servers/app-no-validation.js'],
    },
    {
      key: 'd',
      column: 'd Prism -v error',
      label: 'Prism 5.14.2 `mock --errors=false -v error`',
      ...on24,
      ...prismSystem,
      args: (port) => [...prismArgs(prism.entry, port), '-v', 'error', 'openapi.yaml'],
    },
    {
      key: 'f',
      column: 'f Prism default',
      label: 'Prism 5.14.2 `mock --errors=false`, default logging (written to a file)',
      ...on24,
      ...prismSystem,
      logFile: prismLogFile,
      args: (port) => [...prismArgs(prism.entry, port), 'openapi.yaml'],
    },
    { key: 'c20', column: 'c shipped · Node 20', ...on20, ...shipped },
    { key: 'e20', column: 'e Express · Node 20', ...on20, ...bareExpress },
  ];
}

/**
 * Starts a system and waits for its first 200 on GET <base>/pets. Resolves with the running
 * server: its process, base URL, startup time (spawn to that first 200, in ms) and the CPU time
 * the server had used by then (read right after the 200).
 */
export async function startSystem(system, dataFlags = []) {
  if (dataFlags.length > 0 && !system.dataFlags) throw new Error(`${system.key} takes no data`);
  const port = system.printsPort ? 0 : await freePort();
  const args = await system.args(port);
  const started = performance.now();
  const server = spawnNodeServer([...args, ...dataFlags], {
    node: system.node,
    logFile: system.logFile,
  });
  try {
    const actualPort = system.printsPort ? await printedPort(server, START_TIMEOUT_MS) : port;
    const origin = `http://127.0.0.1:${actualPort}`;
    const ready = await waitFor200(
      `${origin}${system.basePath}/pets`,
      AUTH,
      server,
      START_TIMEOUT_MS,
    );
    const startupCpuMs = cpuMs(server.child.pid);
    return {
      system,
      server,
      pid: server.child.pid,
      baseUrl: `${origin}${system.basePath}`,
      resetUrl: system.resetPath === undefined ? undefined : `${origin}${system.resetPath}`,
      startupMs: ready - started,
      startupCpuMs,
    };
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
}

/** Puts a mock's store back to its start (its seed or fixtures), through its admin API. */
export async function resetStore(running) {
  const status = await statusOf(running.resetUrl, {}, 'POST');
  if (status !== 204) throw new Error(`reset of ${running.system.key}: ${status}`);
}
