import { watch, statSync, readdirSync, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../config/settings.js';
import { isFolder, scenarioFoldersOf } from './load-definition.js';
import { hintsFilePath } from '../contract/resource-hints.js';

/** Watching files; close() stops it. */
export interface Watcher {
  close(): void;
}

export interface WatchOptions {
  /** Change events from the system (fs.watch); off, polling alone tells. Default on. */
  readonly events?: boolean;
  /** How often sizes and times are compared, for file systems that send no events. */
  readonly pollMs?: number;
  /** A burst of changes (an editor's save, a checkout) is told once, this long after its last. */
  readonly debounceMs?: number;
}

const POLL_MS = 400;
const DEBOUNCE_MS = 100;

/**
 * The files --watch looks at: the contract's (its own and those its references name), the
 * scenario folders, the fixtures file.
 */
export function watchedPaths(config: Config, contractFiles: readonly string[]): string[] {
  const generated = config.seed !== undefined || config.count !== undefined;
  return [
    ...contractFiles,
    hintsFilePath(config.contract),
    ...scenarioFoldersOf(config).map(({ dir }) => dir),
    ...(generated ? [] : [config.fixtures]),
  ];
}

/** What a path is now, cheaply: its size and time, or its YAML files' for a folder. */
function signatureOf(path: string): string {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return `${stat.size}:${stat.mtimeMs}`;
    return readdirSync(path)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => `${name}=${signatureOf(join(path, name))}`)
      .join(',');
  } catch {
    return 'absent';
  }
}

/**
 * Calls `onChange` once a burst of changes to `paths` is over. The system's change events come
 * first where it sends them (fs.watch on each folder, since editors replace a file rather than
 * write it); polling stays on beside them, as inotify stays silent on many bind mounts and
 * network file systems.
 */
export function watchFiles(
  paths: readonly string[],
  onChange: () => void,
  { events = true, pollMs = POLL_MS, debounceMs = DEBOUNCE_MS }: WatchOptions = {},
): Watcher {
  let timer: NodeJS.Timeout | undefined;
  const signatures = paths.map(signatureOf);
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // What is told now is not told again by the next poll.
      paths.forEach((path, i) => (signatures[i] = signatureOf(path)));
      onChange();
    }, debounceMs);
  };
  const watchers: FSWatcher[] = [];
  if (events) {
    for (const path of paths) {
      const folder = isFolder(path);
      try {
        const watcher = watch(folder ? path : dirname(path), (_event, name) => {
          if (folder || name === null || name === basename(path)) changed();
        });
        watcher.on('error', () => undefined); // the folder went away: polling still tells
        watchers.push(watcher);
      } catch {
        // No events here (or no such folder yet): polling tells.
      }
    }
  }
  const poll = setInterval(() => {
    paths.forEach((path, i) => {
      const now = signatureOf(path);
      if (now !== signatures[i]) {
        signatures[i] = now;
        changed();
      }
    });
  }, pollMs);
  poll.unref();
  return {
    close: () => {
      clearInterval(poll);
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
