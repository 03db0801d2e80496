// `npm start` and `npx petstore-mock` run the bin in a shell (`sh -c ...`), and npm passes the
// SIGTERM or SIGINT it receives to that shell alone: the shell dies and the bin, an orphan, would
// serve on. Under a package manager's script, the bin takes its shell's end as a stop.

/** How often the bin looks at its parent: a getppid call, nothing to measure. */
const CHECK_EVERY_MS = 200;

/** Whether a package manager's script runner started this process (npm, pnpm and yarn set it). */
export function startedByScript(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined;
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
