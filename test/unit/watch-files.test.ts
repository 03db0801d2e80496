/**
 * watchFiles: the system's change events where they come, and polling beside them for file
 * systems that send none (many bind mounts, network file systems). Each test waits on the call it
 * expects, bounded; none asserts a time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { watchFiles, type WatchOptions, type Watcher } from '../../src/server/watch-files.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

/** How long a change may take to be told before the test says so: a bound, not a goal. */
const TELL_LIMIT_MS = 5000;

let dir: string;
let watcher: Watcher | undefined;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(() => {
  watcher?.close();
  watcher = undefined;
  removeTmpDir(dir);
});

/** Watches `paths`; resolves on the first call of onChange, rejects if none comes in time. */
function firstChange(paths: readonly string[], options: WatchOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error('no change was told'));
    }, TELL_LIMIT_MS);
    watcher = watchFiles(
      paths,
      () => {
        clearTimeout(timer);
        resolve();
      },
      options,
    );
  });
}

describe('watchFiles', () => {
  it('with events off, polling alone sees an edited file', async () => {
    const file = join(dir, 'openapi.yaml');
    writeFileSync(file, 'openapi: 3.0.3\n');
    const told = firstChange([file], { events: false, pollMs: 50, debounceMs: 10 });
    writeFileSync(file, 'openapi: 3.1.0\ninfo: {}\n');
    await told;
  });

  it('with events off, polling alone sees a file added to a folder', async () => {
    const folder = join(dir, 'scenarios');
    mkdirSync(folder);
    const told = firstChange([folder], { events: false, pollMs: 50, debounceMs: 10 });
    writeFileSync(join(folder, 'new.yaml'), 'rules: []\n');
    await told;
  });

  it('with events on, polling still sees a file whose folder appears after the start', async () => {
    // No folder to watch at the start: only polling can tell.
    const folder = join(dir, 'later');
    const file = join(folder, 'pets.json');
    const told = firstChange([file], { pollMs: 50, debounceMs: 10 });
    mkdirSync(folder);
    writeFileSync(file, '[]');
    await told;
  });

  it('with polling as good as off, the events see an edited file', async () => {
    const file = join(dir, 'pets.json');
    writeFileSync(file, '[]');
    const told = firstChange([file], { pollMs: 3_600_000, debounceMs: 10 });
    writeFileSync(file, '[{"id": 1}]');
    await told;
  });
});
