import { readFileSync } from 'node:fs';

// `npm start` and `npx petstore-mock` run the bin in a shell (`sh -c <script>`), and npm passes
// the SIGTERM or SIGINT it receives to that shell alone: the shell dies and the bin, an orphan,
// would serve on. Where that shell runs the bin alone (the script is one command), the shell can
// end before the bin only when it is killed, so the bin takes its end as npm's stop. A script
// that does more (`petstore-mock & wait-on …`) leaves the bin to outlive its shell, as before.

/** How often the bin looks at its parent: a getppid call, nothing to measure. */
const CHECK_EVERY_MS = 200;

/** The words of a shell that run more than one command, or a command in the background. */
const COMPOUND = /[;&|\n`]|\$\(/;

/** A process's command line, as its words; none where /proc cannot tell (not Linux, or gone). */
function commandLineOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
      .split('\0')
      .slice(0, -1);
  } catch {
    return undefined;
  }
}

/**
 * Whether `parent` is a package manager's shell running this bin as the one command of its
 * script (npm, pnpm and yarn set npm_lifecycle_script): `sh -c "<script>"`, or for npx
 * `sh -c "'<command>' '<argument>'…"`.
 */
export function isScriptShell(
  env: NodeJS.ProcessEnv,
  parent: number,
  commandLine: (pid: number) => string[] | undefined = commandLineOf,
): boolean {
  const script = env.npm_lifecycle_script;
  if (script === undefined || COMPOUND.test(script)) return false;
  const words = commandLine(parent);
  if (words?.length !== 3 || words[1] !== '-c') return false;
  // npx names the command alone (`'petstore-mock'`); its shell runs it with the arguments, quoted.
  const run = words[2] ?? '';
  return run === script || run.startsWith(`${script} `);
}

/**
 * Calls `onGone` once `parent` is no longer this process's parent: it ended and this process was
 * handed to init or a subreaper (POSIX; a Windows parent's pid stays, so nothing is ever called).
 * The check never keeps the process alive; the returned function stops it.
 */
export function whenParentGone(parent: number, onGone: () => void): () => void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
