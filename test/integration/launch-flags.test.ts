// The bin applies its V8 flags however it is started (issue 22 item 5): `node dist/cli.js` with no
// NODE_OPTIONS runs with the heap cap the memory bound needs, the user's own size winning.
import { inPlaceRelaunch } from '../../src/cli/launch-flags.js';
import { jsonLines, killAllClis, startCli, type RunningCli } from '../helpers/process-cli.js';

// Processes start slowly on a loaded machine: generous limits, and no assertion on time.
const SLOW = 30_000;

afterEach(async () => {
  await killAllClis();
}, SLOW);

/** The debug line the CLI logs with what V8 runs with. */
function nodeFlagsLine(cli: RunningCli): Record<string, unknown> {
  const line = jsonLines(cli.stdout()).find((entry) => entry.msg === 'node flags');
  if (line === undefined) throw new Error(`no 'node flags' line in ${cli.stdout()}`);
  return line;
}

/** Whether the running Node can replace its own process (22.15+, 23.11+, not on Windows). */
const replacesInPlace = inPlaceRelaunch() !== undefined;

describe('the bin started as `node dist/cli.js`, no NODE_OPTIONS', () => {
  it(
    'runs with the heap cap and the young generation cap',
    async () => {
      const cli = await startCli(['--port', '0', '--log-level', 'debug'], { NODE_OPTIONS: '' });
      const line = nodeFlagsLine(cli);
      expect(line.nodeFlags).toEqual(['--max-old-space-size=640', '--max-semi-space-size=16']);
      // The old space's 640 MiB and the young generation's.
      expect(line.heapLimitMiB).toBeGreaterThanOrEqual(640);
      expect(line.heapLimitMiB).toBeLessThan(768);
      if (replacesInPlace) {
        // The same process: signals, containers and --db's lock see the pid they started.
        expect(line.pid).toBe(cli.child.pid);
      } else {
        // Node 20: a supervised child runs the mock.
        expect(line.pid).not.toBe(cli.child.pid);
      }
    },
    SLOW,
  );

  it(
    "keeps the user's own heap size from NODE_OPTIONS, and adds the rest",
    async () => {
      const cli = await startCli(['--port', '0', '--log-level', 'debug'], {
        NODE_OPTIONS: '--max-old-space-size=300',
      });
      const line = nodeFlagsLine(cli);
      expect(line.nodeFlags).toEqual(['--max-semi-space-size=16']);
      expect(line.heapLimitMiB).toBeGreaterThanOrEqual(300);
      expect(line.heapLimitMiB).toBeLessThan(400);
    },
    SLOW,
  );

  it(
    'leaves no mock serving once killed outright (SIGKILL)',
    async () => {
      const cli = await startCli(['--port', '0'], { NODE_OPTIONS: '' });
      const health = `${new URL(cli.url).origin}/__admin/health`;
      expect((await fetch(health)).status).toBe(200);
      cli.child.kill('SIGKILL');
      await cli.exited;
      let serving = true;
      for (let i = 0; i < 100 && serving; i += 1) {
        serving = await fetch(health).then(
          () => true,
          () => false,
        );
        if (serving) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(serving).toBe(false);
    },
    SLOW,
  );
});
