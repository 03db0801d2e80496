/**
 * Projects that use the package as its users do: a fresh `npm init -y` folder in the temp dir, the
 * packed tarball and a test runner installed from the registry exactly as the docs say (unpinned
 * where they are, so a release that breaks a recipe fails here), the docs' recipe files copied in
 * from examples/, and the runner started as its users start it (`npx jest`, `npx vitest run`, ...).
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/util/paths.js';
import { installFor } from '../helpers/doc-blocks.js';

const exec = promisify(execFile);

/**
 * What the docs tell users to install beside the package for the recipe in examples/<example>/:
 * the `npm install --save-dev <the package> ...` command above its files (test/helpers/doc-blocks.ts).
 */
export function recipePackages(example: string): string[] {
  return installFor(packageRoot, example);
}

/** What the declarations test compiles with: not a recipe of the docs, so pinned. */
export const TYPES_PACKAGES = [
  'typescript@5.9.3',
  '@types/node@24.19.2',
  '@playwright/test@1.65.1',
];

/** Installing from the registry on a busy, shared machine can be slow (a bound, not a target). */
export const INSTALL_LIMIT_MS = 300_000;
/** One run of a consumer's test runner. */
export const RUN_LIMIT_MS = 180_000;

export type NodeLine = 20 | 24;

/** A finished command: its exit code (null when killed), output and duration. */
export interface RunResult {
  code: number | null;
  output: string;
  ms: number;
}

/** Some tools colour their output whatever NO_COLOR says (TypeScript's diagnostics in ts-jest). */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

let node24Dir: string | undefined;

/** The folder of the Node 24 binary (scripts/node24.sh installs it into ~/.cache when missing). */
export async function node24(): Promise<string> {
  if (node24Dir === undefined) {
    const script = join(packageRoot, 'scripts', 'node24.sh');
    const { stdout } = await exec('bash', [script], { timeout: INSTALL_LIMIT_MS });
    node24Dir = dirname(stdout.trim());
  }
  return node24Dir;
}

/**
 * The environment of a consumer's commands: this test run's own markers removed (jest's worker id
 * would name the wrong session, npm's run-script variables would steer the inner npm), Node 24
 * first on PATH unless the machine's Node is asked for, and no browser download.
 */
async function consumerEnv(node: NodeLine, extra: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !/^(npm_|JEST_|VITEST|TEST_|PETSTORE_MOCK_|MOCK_|NODE_OPTIONS$)/.test(name),
  );
  const env: NodeJS.ProcessEnv = Object.fromEntries(inherited);
  if (node === 24) env.PATH = `${await node24()}${delimiter}${env.PATH ?? ''}`;
  return { ...env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', NO_COLOR: '1', ...extra };
}

/**
 * Runs a command in its own process group, killed whole (runner, workers, browser, web server)
 * when it outlives `limitMs`.
 */
export async function runCommand(
  cwd: string,
  command: string,
  args: readonly string[],
  {
    node = 24,
    env = {},
    limitMs = RUN_LIMIT_MS,
  }: { node?: NodeLine; env?: NodeJS.ProcessEnv; limitMs?: number } = {},
): Promise<RunResult> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: await consumerEnv(node, env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const kill = (): void => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const timer = setTimeout(() => {
    output += `\n[killed after ${String(limitMs)} ms]`;
    kill();
  }, limitMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      resolve(exitCode);
    });
  }).finally(() => {
    clearTimeout(timer);
    kill(); // a web server or browser left behind by the runner
  });
  const plain = output.replace(ANSI_COLOUR, '');
  return { code, output: plain, ms: Math.round(performance.now() - started) };
}

/** Runs a command and throws with its output unless it exits 0. */
export async function mustRun(
  cwd: string,
  command: string,
  args: readonly string[],
  options: { node?: NodeLine; env?: NodeJS.ProcessEnv; limitMs?: number } = {},
): Promise<RunResult> {
  const result = await runCommand(cwd, command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${String(result.code)}:\n${result.output}`,
    );
  }
  return result;
}

/** The package as users get it: `npm pack` of the built dist/ (`npm run build` runs first). */
export async function packTarball(into: string): Promise<string> {
  const { stdout } = await exec(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', into],
    { cwd: packageRoot, timeout: RUN_LIMIT_MS },
  );
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error('npm pack reported nothing');
  return join(into, packed.filename);
}

/** A consumer project in the temp dir, removed by `remove()`. */
export interface ConsumerProject {
  readonly dir: string;
  readonly tarball: string;
  /** Copies examples/<from> (a file or a folder) to <to> in the project. */
  copyExample(from: string, to?: string): void;
  /** Writes a file in the project, making its folders. */
  writeFile(name: string, content: string): void;
  /** `npm install --save-dev` of the tarball and these packages, on Node 24. */
  install(packages: readonly string[], flags?: readonly string[]): Promise<RunResult>;
  remove(): void;
}

/** A fresh `npm init -y` project beside a freshly packed tarball. */
export async function createConsumerProject(name: string): Promise<ConsumerProject> {
  const root = mkdtempSync(join(tmpdir(), `petstore-consumer-${name}-`));
  const tarball = await packTarball(root);
  const dir = join(root, name);
  mkdirSync(dir);
  await mustRun(dir, 'npm', ['init', '-y'], { limitMs: 60_000 });
  return {
    dir,
    tarball,
    copyExample(from, to = from) {
      cpSync(join(packageRoot, 'examples', from), join(dir, to), { recursive: true });
    },
    writeFile(file, content) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), content);
    },
    install: (packages, flags = []) =>
      mustRun(
        dir,
        'npm',
        // No --prefer-offline: an unpinned package is the registry's latest, as users get it.
        ['install', '--save-dev', '--no-audit', '--no-fund', ...flags, tarball, ...packages],
        { limitMs: INSTALL_LIMIT_MS },
      ),
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A TCP port that was free a moment ago (for a runner's web server that needs a fixed one). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port'));
        else resolve(address.port);
      });
    });
  });
}
