import { isScriptShell, whenParentGone } from './script-shell.js';

/** A V8 flag the mock runs with, unless the user sized that part of the heap themselves. */
export interface LaunchFlag {
  readonly flag: string;
  /** Options that size the same part of the heap: when the user gives one, theirs is kept. */
  readonly sizedBy: readonly string[];
}

/** The V8 flags the bin runs with, however it is started (`node dist/cli.js`, npx, the image). */
export const LAUNCH_FLAGS: readonly LaunchFlag[] = [
  {
    // The memory bound (docs/limits.md): uncapped, V8 lets garbage pile up before it collects.
    flag: '--max-old-space-size=640',
    sizedBy: ['--max-old-space-size', '--max-old-space-size-percentage', '--max-heap-size'],
  },
  {
    // Uncapped, V8 grows the young generation under load, and the RSS with it.
    flag: '--max-semi-space-size=16',
    sizedBy: ['--max-semi-space-size', '--max-heap-size'],
  },
];

/** An option's name as V8 reads it: `--max_old_space_size=1` is `--max-old-space-size`. */
function optionName(arg: string): string {
  const [name = ''] = arg.split('=', 1);
  return name.startsWith('--') ? `--${name.slice(2).replaceAll('_', '-')}` : name;
}

/**
 * The launch flags a process started with `execArgv` and `nodeOptions` (NODE_OPTIONS) lacks:
 * none for a part of the heap the user sized, on node's command line or in NODE_OPTIONS.
 */
export function missingLaunchFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(optionName));
  return LAUNCH_FLAGS.filter(({ sizedBy }) => !sizedBy.some((name) => given.has(name))).map(
    ({ flag }) => flag,
  );
}

/** Set for the child a supervising bin starts where Node cannot replace its process. */
const SUPERVISED = 'PETSTORE_MOCK_SUPERVISED';

/** Whether this process is the child of a supervising bin (Node 20, Windows). */
export function isSupervised(env: NodeJS.ProcessEnv): boolean {
  return env[SUPERVISED] !== undefined;
}

/** Signals the supervising bin passes on to its child (POSIX). */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

function isExecve(value: unknown): value is Execve {
  return typeof value === 'function';
}

/** process.execve where it works: Node 22.15+ and 23.11+ define it everywhere; Windows throws. */
export function inPlaceRelaunch(): Execve | undefined {
  const execve: unknown = Reflect.get(process, 'execve');
  return isExecve(execve) && process.platform !== 'win32' ? execve : undefined;
}

/**
 * Makes the bin run with LAUNCH_FLAGS. Resolves with undefined when this process has them (or
 * the user's own): the command line runs here. Otherwise starts the same script again with them,
 * before the user's own node options: in place where Node can (process.execve, Node 22.15+ and
 * 23.11+: same PID for signals, containers and --db's lock), which never returns; else (Node 20,
 * Windows) as a supervised child, resolving with its exit code once it ends.
 */
export async function relaunchWithLaunchFlags(): Promise<number | undefined> {
  if (isSupervised(process.env)) endWithSupervisor();
  const [, script, ...args] = process.argv;
  const flags = missingLaunchFlags(process.execArgv, process.env.NODE_OPTIONS);
  if (flags.length === 0 || script === undefined) return undefined;
  const argv = [...flags, ...process.execArgv, script, ...args];
  const execve = inPlaceRelaunch();
  if (execve) execve.call(process, process.execPath, [process.execPath, ...argv], process.env);
  return runSupervised(argv);
}

/**
 * Runs the bin as a child with stdio inherited, passes signals on and ends as it did: with its
 * exit code, or killed by its signal. On POSIX the child has a process group of its own, so that
 * a terminal's Ctrl-C reaches this process alone and is passed on once (a second would stop the
 * mock at once); under `npm start` or npx, the end of npm's shell is passed on as a SIGTERM.
 */
async function runSupervised(argv: readonly string[]): Promise<number> {
  const parent = process.ppid;
  const { spawn } = await import('node:child_process');
  const posix = process.platform !== 'win32';
  const child = spawn(process.execPath, argv, {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [SUPERVISED]: '1' },
    detached: posix,
  });
  let forwarded = false;
  const forward = (signal: NodeJS.Signals): void => {
    forwarded = true;
    child.kill(signal);
  };
  const signals = posix ? FORWARDED : [];
  for (const signal of signals) process.on(signal, forward);
  const stopWatching = isScriptShell(process.env, parent)
    ? whenParentGone(parent, () => {
        if (!forwarded) forward('SIGTERM');
      })
    : undefined;
  // A Windows console's Ctrl-C reaches the child too: the bin waits for it to stop cleanly.
  const waitForChild = (): void => undefined;
  if (!posix) process.on('SIGINT', waitForChild);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const forwardedSignal of signals) process.off(forwardedSignal, forward);
      process.off('SIGINT', waitForChild);
      stopWatching?.();
      if (signal !== null) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}

/**
 * The supervised child ends with its supervisor: a supervisor killed outright (SIGKILL) cannot
 * pass that on, and the mock must not outlive it holding its port and --db file.
 */
function endWithSupervisor(): void {
  process.channel?.unref();
  process.once('disconnect', () => {
    process.kill(process.pid, 'SIGKILL');
  });
}
