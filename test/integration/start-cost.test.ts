import { killAllClis, startCli, stopCli } from '../helpers/process-cli.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

/** Prints the internal modules the process loaded when it exits (node --import). */
const REPORT_MODULES =
  "process.on('exit', () => process.stderr.write(`MODULES ${JSON.stringify(process.moduleLoadList)}\\n`));";

let dir: string;
beforeEach(() => {
  dir = makeTmpDir();
});
afterEach(async () => {
  await killAllClis();
  removeTmpDir(dir);
});

describe('what the mock loads to start and answer', () => {
  // src/util/builtins.ts: an ES import of node:http (or crypto, util) would load these on Node 24.
  it('loads neither undici (fetch, WebSocket) nor webcrypto', async () => {
    const preload = writeTmpFile(dir, 'report-modules.mjs', REPORT_MODULES);
    const cli = await startCli(['--port', '0', '--log-level', 'info'], {
      NODE_OPTIONS: `--import=${preload}`,
    });
    const answer = await fetch(`${cli.url}/pets`, { headers: { Authorization: 'Bearer t' } });
    expect(answer.status).toBe(200);
    const { stderr } = await stopCli(cli);
    const line = stderr.split('\n').find((text) => text.startsWith('MODULES '));
    const modules: unknown = JSON.parse(line?.slice('MODULES '.length) ?? 'null');
    expect(Array.isArray(modules) && modules.length > 0).toBe(true);
    const loaded = Array.isArray(modules) ? modules.map(String) : [];
    expect(loaded.filter((name) => /undici|webcrypto/.test(name))).toEqual([]);
  });
});
