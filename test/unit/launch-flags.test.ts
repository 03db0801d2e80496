// The bin's V8 flags (issue 22 item 5): which ones a process still lacks, the user's own winning.
import { LAUNCH_FLAGS, inPlaceRelaunch, missingLaunchFlags } from '../../src/cli/launch-flags.js';

const OLD_SPACE = '--max-old-space-size=640';
const SEMI_SPACE = '--max-semi-space-size=16';

describe('missingLaunchFlags', () => {
  it('names every launch flag for a process started without node options', () => {
    expect(missingLaunchFlags([], undefined)).toEqual([OLD_SPACE, SEMI_SPACE]);
    expect(LAUNCH_FLAGS.map(({ flag }) => flag)).toEqual([OLD_SPACE, SEMI_SPACE]);
  });

  it('names none once the process runs with them (after the relaunch)', () => {
    expect(missingLaunchFlags([OLD_SPACE, SEMI_SPACE, '--inspect'], '')).toEqual([]);
  });

  it.each([
    ['on the command line', ['--max-old-space-size=2048'], ''],
    ['in NODE_OPTIONS', [], '--enable-source-maps --max-old-space-size=2048'],
    ['with underscores, as V8 also reads it', ['--max_old_space_size=300'], ''],
    ['as a share of the memory', [], '--max-old-space-size-percentage=50'],
  ])("keeps the user's own old space size given %s", (_how, execArgv, nodeOptions) => {
    expect(missingLaunchFlags(execArgv, nodeOptions)).toEqual([SEMI_SPACE]);
  });

  it("keeps the user's own young generation size", () => {
    expect(missingLaunchFlags([], '--max-semi-space-size=64')).toEqual([OLD_SPACE]);
  });

  it('adds neither to a --max-heap-size, which V8 refuses beside both of them', () => {
    expect(missingLaunchFlags(['--max-heap-size=1024'], '')).toEqual([]);
  });

  it('is not fooled by options that only start alike', () => {
    expect(missingLaunchFlags(['--max-old-space'], '--semi-space-growth-factor=2')).toEqual([
      OLD_SPACE,
      SEMI_SPACE,
    ]);
  });
});

describe('inPlaceRelaunch', () => {
  const platform = process.platform;
  const execve: unknown = Reflect.get(process, 'execve');
  const stub = (): never => {
    throw new Error('not to be called');
  };

  afterEach(() => {
    Object.defineProperty(process, 'platform', { value: platform });
    Reflect.set(process, 'execve', execve);
  });

  it('offers process.execve where Node has it, off Windows', () => {
    Object.defineProperty(process, 'platform', { value: 'linux' });
    Reflect.set(process, 'execve', stub);
    expect(inPlaceRelaunch()).toBe(stub);
  });

  it('offers nothing on Windows, where Node defines process.execve but it throws', () => {
    Object.defineProperty(process, 'platform', { value: 'win32' });
    Reflect.set(process, 'execve', stub);
    expect(inPlaceRelaunch()).toBeUndefined();
  });

  it('offers nothing on a Node without process.execve (20, 22 before 22.15)', () => {
    Object.defineProperty(process, 'platform', { value: 'linux' });
    Reflect.set(process, 'execve', undefined);
    expect(inPlaceRelaunch()).toBeUndefined();
  });
});
