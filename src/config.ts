import { parseArgs } from 'node:util';
import type { LogLevel } from './logger.js';
import { errorMessage } from './error-message.js';
import { defaultFixturesPath, defaultScenariosDir } from './paths.js';
import { OPTION_NAMES, OPTIONS, type OptionName } from './options.js';
import { PET_STATUSES, isPetStatus, type PetStatus } from './pets/pet.js';

/** The mock's settings: built once from defaults, environment and flags; never changed. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dbPath: string | undefined;
  readonly seed: number | undefined;
  readonly count: number | undefined;
  readonly fixturesPath: string;
  readonly apiKeys: readonly string[];
  readonly defaultStatus: PetStatus | undefined;
  readonly logLevel: LogLevel;
  readonly corsOrigins: readonly string[];
  readonly scenario: string | undefined;
  readonly scenariosDir: string;
  readonly maxSessions: number;
  readonly journalSize: number;
  readonly adminToken: string | undefined;
  /** False with --no-admin: no /__admin at all. */
  readonly admin: boolean;
}

/** A setting that cannot be used; its message is one line naming the flag or variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = [
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
];
const DEFAULT_COUNT = 100;
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_JOURNAL_SIZE = 1000;
const MAX_COUNT = 1_000_000;

/** What the command line asks for: run the mock, or print help or the version. */
export type Command = { kind: 'run'; config: Config } | { kind: 'help' } | { kind: 'version' };

type Raw = Partial<Record<OptionName, string>>;

function readFlags(argv: readonly string[]): {
  raw: Raw;
  help: boolean;
  version: boolean;
  noAdmin: boolean;
} {
  const options = Object.fromEntries(
    OPTION_NAMES.map((name) => [name, { type: 'string' } as const]),
  );
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        ...options,
        help: { type: 'boolean', short: 'h' },
        'no-admin': { type: 'boolean' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    });
    const given: Record<string, unknown> = values;
    const raw: Raw = {};
    for (const name of OPTION_NAMES) {
      const value = given[name];
      if (typeof value === 'string') raw[name] = value;
    }
    return {
      raw,
      help: values.help === true,
      version: values.version === true,
      noAdmin: given['no-admin'] === true,
    };
  } catch (error) {
    throw new ConfigError(`${errorMessage(error).split('\n')[0] ?? ''} (see --help)`);
  }
}

/** Resolves each setting: the flag wins over the environment variable. */
function sourceOf(
  name: OptionName,
  flags: Raw,
  env: NodeJS.ProcessEnv,
): { value: string; label: string } | undefined {
  const flag = flags[name];
  if (flag !== undefined) return { value: flag, label: `--${name}` };
  const fromEnv = env[OPTIONS[name].env];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, label: OPTIONS[name].env };
  return undefined;
}

function integer(label: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${label}: expected an integer from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function origins(label: string, value: string): string[] {
  const items = list(value);
  for (const item of items) {
    if (item === '*') continue;
    let valid = false;
    try {
      valid = new URL(item).origin === item;
    } catch {
      valid = false;
    }
    if (!valid)
      throw new ConfigError(`${label}: "${item}" is not an origin like http://localhost:3000`);
  }
  return items;
}

/** MOCK_NO_ADMIN=1 (or true) is --no-admin; another non-empty value is a mistake worth saying. */
function adminDisabledByEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env.MOCK_NO_ADMIN?.trim().toLowerCase() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`MOCK_NO_ADMIN: expected 1, true, 0 or false, got "${value}"`);
}

/** Builds the read-only Config from the command line and the environment. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const { raw, help, version, noAdmin } = readFlags(argv);
  if (help) return { kind: 'help' };
  if (version) return { kind: 'version' };
  const get = (name: OptionName) => sourceOf(name, raw, env);

  const port = get('port');
  const seed = get('seed');
  const count = get('count');
  const fixtures = get('fixtures');
  const defaultStatus = get('default-status');
  const logLevel = get('log-level');
  const host = get('host');

  if (fixtures && (seed || count)) {
    throw new ConfigError(
      `${fixtures.label} cannot be combined with ${(seed ?? count)?.label ?? ''}`,
    );
  }
  if (defaultStatus && !isPetStatus(defaultStatus.value)) {
    throw new ConfigError(
      `${defaultStatus.label}: expected one of ${PET_STATUSES.join(', ')}, got "${defaultStatus.value}"`,
    );
  }
  const level = LOG_LEVELS.find((l) => l === logLevel?.value);
  if (logLevel && !level) {
    throw new ConfigError(
      `${logLevel.label}: expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel.value}"`,
    );
  }
  if (host?.value.trim() === '') throw new ConfigError(`${host.label}: expected an address`);

  const generated = seed !== undefined || count !== undefined;
  const corsOrigin = get('cors-origin');
  const apiKeys = get('api-keys');
  const db = get('db');
  const scenario = get('scenario');
  const scenariosDir = get('scenarios-dir');
  const maxSessions = get('max-sessions');
  const journalSize = get('journal-size');
  const adminToken = get('admin-token');
  const config: Config = {
    port: port ? integer(port.label, port.value, 0, 65535) : 4010,
    host: host?.value.trim() ?? '127.0.0.1',
    dbPath: db?.value,
    seed: generated ? (seed ? integer(seed.label, seed.value, 0, 2 ** 32 - 1) : 1) : undefined,
    count: generated
      ? count
        ? integer(count.label, count.value, 0, MAX_COUNT)
        : DEFAULT_COUNT
      : undefined,
    fixturesPath: fixtures?.value ?? defaultFixturesPath,
    apiKeys: apiKeys ? list(apiKeys.value) : [],
    defaultStatus:
      defaultStatus && isPetStatus(defaultStatus.value) ? defaultStatus.value : undefined,
    logLevel: level ?? 'info',
    corsOrigins: corsOrigin ? origins(corsOrigin.label, corsOrigin.value) : [],
    scenario: scenario?.value.trim(),
    scenariosDir: scenariosDir?.value ?? defaultScenariosDir,
    maxSessions: maxSessions
      ? integer(maxSessions.label, maxSessions.value, 1, 100_000)
      : DEFAULT_MAX_SESSIONS,
    journalSize: journalSize
      ? integer(journalSize.label, journalSize.value, 0, 100_000)
      : DEFAULT_JOURNAL_SIZE,
    adminToken: adminToken?.value,
    admin: !(noAdmin || adminDisabledByEnv(env)),
  };
  return { kind: 'run', config: Object.freeze(config) };
}

export { OPTIONS, helpText } from './options.js';
