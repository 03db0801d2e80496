/** The systems under test, each a separate server process, and how to start one. */
import { performance } from 'node:perf_hooks';
import { spawnNodeServer } from './children.js';
import { freePort, printedPort, waitFor200 } from './http-probe.js';

export const AUTH = { Authorization: 'Bearer bench' };

/** Generous: seeding 100k pets takes a while, and so may Prism on a busy machine. */
const START_TIMEOUT_MS = 120_000;

/**
 * key: a–d as in issue 5. basePath: where the pet API is served (Prism serves the document's paths
 * without the servers' /v1). `args(port)`: node's arguments; `printsPort`: listens on port 0 and
 * prints `PORT <n>`, else listens on the given port. `dataFlags`: takes the CLI's data flags.
 */
export function defineSystems(prismEntry) {
  const systems = [
    {
      key: 'a',
      label: 'bare node:http (limit)',
      basePath: '/v1',
      printsPort: true,
      args: () => ['bench/servers/bare.js'],
    },
    {
      key: 'b',
      label: 'app, validation off',
      basePath: '/v1',
      printsPort: true,
      dataFlags: true,
      args: () => ['bench/servers/app-no-validation.js'],
    },
    {
      key: 'c',
      label: 'app as shipped',
      basePath: '/v1',
      dataFlags: true,
      args: (port) => ['dist/cli.js', '--port', String(port), '--log-level', 'silent'],
    },
  ];
  if (prismEntry) {
    systems.push({
      key: 'd',
      label: 'Prism 5.14.2',
      basePath: '',
      args: (port) => [
        prismEntry,
        'mock',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '--errors=false',
        '-v',
        'error',
        'openapi.yaml',
      ],
    });
  }
  return systems;
}

/**
 * Starts a system and waits for its first 200 on GET <base>/pets. Resolves with the running
 * server: its process, base URL and startup time (spawn to that first 200, in ms).
 */
export async function startSystem(system, dataFlags = []) {
  if (dataFlags.length > 0 && !system.dataFlags) throw new Error(`${system.key} takes no data`);
  const port = system.printsPort ? 0 : await freePort();
  const started = performance.now();
  const server = spawnNodeServer([...system.args(port), ...dataFlags]);
  try {
    const actualPort = system.printsPort ? await printedPort(server, START_TIMEOUT_MS) : port;
    const origin = `http://127.0.0.1:${actualPort}`;
    const ready = await waitFor200(
      `${origin}${system.basePath}/pets`,
      AUTH,
      server,
      START_TIMEOUT_MS,
    );
    return {
      system,
      server,
      pid: server.child.pid,
      baseUrl: `${origin}${system.basePath}`,
      startupMs: ready - started,
    };
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
}
