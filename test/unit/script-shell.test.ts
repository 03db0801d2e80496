import { isScriptShell } from '../../src/cli/script-shell.js';

// The bin takes the end of its parent shell as npm's stop only where that shell runs it alone.

const shell = (run: string) => () => ['sh', '-c', run];

describe('isScriptShell', () => {
  it('is npm start: sh -c running the script as it is', () => {
    const env = { npm_lifecycle_script: 'node dist/cli.js' };
    expect(isScriptShell(env, 1, shell('node dist/cli.js'))).toBe(true);
  });

  it('is npx: sh -c running the command named, with its arguments quoted', () => {
    const env = { npm_lifecycle_script: "'petstore-mock'" };
    expect(isScriptShell(env, 1, shell("'petstore-mock' '--port' '0'"))).toBe(true);
  });

  it('is not a script that does more than run the bin, which may outlive its shell', () => {
    for (const script of [
      'petstore-mock & wait-on tcp:4010',
      'petstore-mock; echo done',
      'petstore-mock && echo done',
      'petstore-mock | tee log',
      'petstore-mock --port $(free-port)',
    ]) {
      expect(isScriptShell({ npm_lifecycle_script: script }, 1, shell(script))).toBe(false);
    }
  });

  it('is not a process outside a script, nor one whose parent is another command', () => {
    expect(isScriptShell({}, 1, shell('node dist/cli.js'))).toBe(false);
    const env = { npm_lifecycle_script: 'node dist/cli.js' };
    expect(isScriptShell(env, 1, () => ['node', 'runner.js'])).toBe(false);
    expect(isScriptShell(env, 1, () => undefined)).toBe(false);
  });

  it('reads the parent from /proc: this test runner is not a script shell', () => {
    expect(isScriptShell({ npm_lifecycle_script: 'node dist/cli.js' }, process.ppid)).toBe(false);
  });
});
