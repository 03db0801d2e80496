// The bin's processes (issue 31): one process where Node can replace its own image (22.15+, 24),
// and however many there are, a SIGTERM to the bin, to `npm start` or to npx stops the mock and
// leaves nothing running. Linux: the process tree is read from /proc.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inPlaceRelaunch } from '../../src/cli/launch-flags.js';
import { packageRoot } from '../../src/util/paths.js';
import { pollUntil } from '../helpers/poll-until.js';
import { CLI_PATH, killAllClis, startCommand, type RunningCli } from '../helpers/process-cli.js';

// Processes start slowly on a loaded machine: generous limits, and no assertion on time.
const SLOW = 30_000;
const LAUNCH_FLAGS = ['--max-old-space-size=640', '--max-semi-space-size=16'];

/** A Node that replaces its process in place: the running one if it can, else scripts/node24.sh's. */
function nodeWithExecve(): { node?: string; why: string } {
  if (inPlaceRelaunch() !== undefined) return { node: process.execPath, why: 'the running Node' };
  try {
    const out = execFileSync('bash', [join(packageRoot, 'scripts', 'node24.sh')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { node: out.trim(), why: 'Node 24 from scripts/node24.sh' };
  } catch (error) {
    return { why: `no Node 24: scripts/node24.sh failed (${String(error).split('\n')[0]})` };
  }
}

const withExecve = nodeWithExecve();
/** The runtimes the signal tests run on: the running Node (20 on this machine) and Node 24. */
const RUNTIMES = [...new Set([process.execPath, ...(withExecve.node ? [withExecve.node] : [])])];

/** The state letter and parent pid of a process, from /proc/<pid>/stat; undefined once gone. */
function statOf(pid: number): { state: string; ppid: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
  const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

/** Whether a process runs (an exited child nobody has reaped yet, a zombie, does not). */
function running(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** Every running descendant of `pid`. */
function descendants(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat === undefined || stat.state === 'Z') continue;
    childrenOf.set(stat.ppid, [...(childrenOf.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const children = childrenOf.get(next) ?? [];
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

/** The pid the CLI logged with its V8 flags (--log-level debug): the process serving. */
function servingPid(cli: RunningCli): number {
  for (const line of cli.stdout().split('\n')) {
    if (!line.startsWith('{')) continue; // npm's own lines
    const entry: unknown = JSON.parse(line);
    if (
      typeof entry === 'object' &&
      entry !== null &&
      'msg' in entry &&
      entry.msg === 'node flags' &&
      'pid' in entry &&
      typeof entry.pid === 'number'
    ) {
      return entry.pid;
    }
  }
  throw new Error(`no 'node flags' line in ${cli.stdout()}`);
}

async function answers(url: string): Promise<boolean> {
  return fetch(`${new URL(url).origin}/__admin/health`).then(
    () => true,
    () => false,
  );
}

/** Processes a test left behind (an orphaned mock when the test fails): killed after it. */
let leftBehind: number[] = [];

afterEach(async () => {
  for (const pid of leftBehind) {
    if (running(pid)) process.kill(pid, 'SIGKILL');
  }
  leftBehind = [];
  await killAllClis();
}, SLOW);

const ARGS = [CLI_PATH, '--port', '0', '--log-level', 'debug'];

describe(`the bin where Node replaces its process in place (${withExecve.why})`, () => {
  const { node } = withExecve;
  const itWithExecve = node === undefined ? it.skip : it;

  itWithExecve(
    'is one process: the pid started is the pid serving, with the V8 flags, and no child',
    async () => {
      const cli = await startCommand(node ?? '', ARGS, { NODE_OPTIONS: '' });
      const pid = cli.child.pid ?? -1;
      leftBehind = [pid];
      expect(servingPid(cli)).toBe(pid);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline.slice(1, 3)).toEqual(LAUNCH_FLAGS);
      expect(descendants(pid)).toEqual([]);
    },
    SLOW,
  );
});

describe.each(RUNTIMES)('the bin on %s', (node) => {
  it(
    'stops on SIGTERM: the mock closes its port cleanly, the bin exits 0, nothing stays',
    async () => {
      const cli = await startCommand(node, ARGS, { NODE_OPTIONS: '' });
      const pid = cli.child.pid ?? -1;
      const tree = [pid, ...descendants(pid)];
      leftBehind = tree;
      expect(tree).toContain(servingPid(cli));
      cli.child.kill('SIGTERM');
      const exit = await cli.exited;
      // A clean stop, not a supervised child killed when its supervisor died of the signal.
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.stdout).toContain('"signal":"SIGTERM","msg":"stopping"');
      expect(await answers(cli.url)).toBe(false);
      expect(tree.filter(running)).toEqual([]);
    },
    SLOW,
  );

  it(
    'run by `npm start`, stops when npm gets SIGTERM: nothing keeps serving',
    async () => {
      // npm runs the script in `sh -c`, passes SIGTERM to that shell alone, and the shell dies.
      const cli = await startCommand('npm', ['start', '--', ...ARGS.slice(1)], {
        NODE_OPTIONS: '',
        PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
      });
      const npm = cli.child.pid ?? -1;
      const tree = descendants(npm);
      leftBehind = tree;
      expect(tree).toContain(servingPid(cli));
      cli.child.kill('SIGTERM');
      await pollUntil(
        async () => tree.every((pid) => !running(pid)) && !(await answers(cli.url)),
        `every process of npm start ended and the port closed (${tree.join(', ')})`,
        15_000,
      );
      const exit = await cli.exited;
      expect(exit.stdout).toContain('"signal":"SIGTERM","msg":"stopping"');
    },
    SLOW,
  );
});
