import { parseArgs } from 'node:util';
import { coverageFormatOfFile, type CoverageFormat } from '../state/coverage-formats.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';
import type { LogLevel } from '../util/logger.js';
import { errorMessage } from '../util/error-message.js';
import { defaultFixturesPath, defaultScenariosDir } from '../util/paths.js';
import { OPTION_NAMES, OPTIONS, type OptionDoc, type OptionName } from './settings.js';
import type { ProxySettings } from '../proxy/proxy.js';
import { DEFAULT_JOURNAL_BYTES } from '../state/request-journal.js';
import { PET_STATUSES, isPetStatus, type PetStatus } from '../state/pet.js';
import { DEFAULT_STORE_LIMITS, type StoreLimits } from '../state/store-budget.js';

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
  /** Where to write the coverage report at shutdown, in the format its extension names. */
  readonly coverageReport: { readonly path: string; readonly format: CoverageFormat } | undefined;
  /** Proxy mode, with --proxy-target. */
  readonly proxy: ProxySettings | undefined;
  /** Connections, pipelining and timeouts: what no client may exceed. */
  readonly connections: ConnectionLimits;
  /** What clients may add to the stores: pets per session, bytes across sessions. */
  readonly store: StoreLimits;
  /** Bytes all sessions' journals may keep together. */
  readonly journalBytes: number;
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
const DEFAULT_PROXY_TIMEOUT_MS = 10_000;
const MAX_PROXY_TIMEOUT_MS = 600_000;

/** What the command line asks for: run the mock, or print help or the version. */
export type Command = { kind: 'run'; config: Config } | { kind: 'help' } | { kind: 'version' };

type Raw = Partial<Record<OptionName, string>>;

const SHORT_FLAGS = new Set(['-h', '-v']);

/**
 * `--count -1`: parseArgs calls a value that starts with a dash ambiguous, and its message hides
 * the real problem. As with getopt, a single-dash word after one of our options is its value
 * (`-h` and `-v` stay flags), so the value gets the same check and message as `--count=-1`.
 */
function attachDashValues(argv: readonly string[]): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const takesValue = OPTION_NAMES.some((name) => arg === `--${name}`);
    if (takesValue && next !== undefined && /^-[^-]/.test(next) && !SHORT_FLAGS.has(next)) {
      args.push(`${arg}=${next}`);
      i += 1;
    } else {
      args.push(arg);
    }
  }
  return args;
}

/** A setting as given, and where: `--flag` or the variable's name, for error messages. */
interface Given {
  readonly value: string;
  readonly label: string;
}

function readFlags(argv: readonly string[]): {
  raw: Raw;
  help: boolean;
  version: boolean;
  noAdmin: boolean;
} {
  const options = Object.fromEntries(
    OPTION_NAMES.map((name) => {
      const doc: OptionDoc = OPTIONS[name];
      return [name, { type: doc.switch ? ('boolean' as const) : ('string' as const) }];
    }),
  );
  try {
    const { values } = parseArgs({
      args: attachDashValues(argv),
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
      // A switch given on the command line reads as its variable set to 1.
      if (value === true) raw[name] = '1';
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
function sourceOf(name: OptionName, flags: Raw, env: NodeJS.ProcessEnv): Given | undefined {
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

/**
 * A setting that guards access, read so that it never fails open: unlike other settings, an empty
 * environment variable counts as given, and a value with nothing in it stops the start.
 */
function guardOf(
  name: 'admin-token' | 'api-keys',
  flags: Raw,
  env: NodeJS.ProcessEnv,
): Given | undefined {
  const flag = flags[name];
  if (flag !== undefined) return { value: flag, label: `--${name}` };
  const fromEnv = env[OPTIONS[name].env];
  return fromEnv === undefined ? undefined : { value: fromEnv, label: OPTIONS[name].env };
}

/** The admin token; empty would lock admin for good (flag) or leave it open (variable). */
function adminTokenOf(given: Given | undefined): string | undefined {
  if (given === undefined) return undefined;
  const token = given.value.trim();
  if (token === '') {
    throw new ConfigError(
      `${given.label}: the admin token is empty; give a token, or leave it unset for an open admin API`,
    );
  }
  return token;
}

/** The accepted API keys; an empty list would accept any token. */
function apiKeysOf(given: Given | undefined): string[] {
  if (given === undefined) return [];
  const keys = list(given.value);
  if (keys.length === 0) {
    throw new ConfigError(
      `${given.label}: no key in "${given.value}"; give at least one, or leave it unset to accept any token`,
    );
  }
  return keys;
}

/** Timeouts shorter than this would refuse ordinary clients; longer than an hour protect nothing. */
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 3_600_000;

/** Largest byte budget accepted: 64 GiB, more than any machine here would hold. */
const MAX_BUDGET_BYTES = 2 ** 36;

/** A byte budget: at least `min`, at most MAX_BUDGET_BYTES. */
function sizeOf(
  get: (name: OptionName) => Given | undefined,
  name: OptionName,
  min: number,
  fallback: number,
): number {
  const given = get(name);
  return given ? integer(given.label, given.value, min, MAX_BUDGET_BYTES) : fallback;
}

/** What clients may add to the stores. */
function storeLimitsOf(get: (name: OptionName) => Given | undefined): StoreLimits {
  const maxPets = get('max-pets');
  return Object.freeze({
    maxPets: maxPets
      ? integer(maxPets.label, maxPets.value, 0, 10_000_000)
      : DEFAULT_STORE_LIMITS.maxPets,
    maxBytes: sizeOf(get, 'max-store-bytes', 1024 * 1024, DEFAULT_STORE_LIMITS.maxBytes),
  });
}

/** The connection budgets and timeouts; the headers are part of the request, so come within it. */
function connectionLimitsOf(get: (name: OptionName) => Given | undefined): ConnectionLimits {
  const read = (name: OptionName, min: number, max: number, fallback: number): number => {
    const given = get(name);
    return given ? integer(given.label, given.value, min, max) : fallback;
  };
  const defaults = DEFAULT_CONNECTION_LIMITS;
  const timeout = (name: OptionName, fallback: number) =>
    read(name, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, fallback);
  const limits: ConnectionLimits = {
    maxConnections: read('max-connections', 1, 1_000_000, defaults.maxConnections),
    maxQueuedBytes: read('max-queued-bytes', 1024, 2 ** 30, defaults.maxQueuedBytes),
    maxQueuedTotal: read('max-queued-total', 1024 * 1024, 2 ** 40, defaults.maxQueuedTotal),
    maxPipelined: read('max-pipelined', 1, 100_000, defaults.maxPipelined),
    headersTimeoutMs: timeout('headers-timeout', defaults.headersTimeoutMs),
    requestTimeoutMs: timeout('request-timeout', defaults.requestTimeoutMs),
    keepAliveTimeoutMs: timeout('keep-alive-timeout', defaults.keepAliveTimeoutMs),
    writeTimeoutMs: timeout('write-timeout', defaults.writeTimeoutMs),
  };
  if (limits.maxQueuedBytes > limits.maxQueuedTotal) {
    const label = get('max-queued-bytes')?.label ?? get('max-queued-total')?.label ?? '';
    throw new ConfigError(
      `${label}: one connection's budget (${limits.maxQueuedBytes} bytes) exceeds that of all of them (${limits.maxQueuedTotal})`,
    );
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    const label = get('headers-timeout')?.label ?? get('request-timeout')?.label ?? '';
    throw new ConfigError(
      `${label}: the headers timeout (${limits.headersTimeoutMs} ms) exceeds the request timeout (${limits.requestTimeoutMs} ms), of which it is a part`,
    );
  }
  return Object.freeze(limits);
}

/** MOCK_NO_ADMIN=1 (or true) is --no-admin; another non-empty value is a mistake worth saying. */
function adminDisabledByEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env.MOCK_NO_ADMIN?.trim().toLowerCase() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`MOCK_NO_ADMIN: expected 1, true, 0 or false, got "${value}"`);
}

function reportFile(label: string, path: string): NonNullable<Config['coverageReport']> {
  const format = coverageFormatOfFile(path);
  if (!format) {
    throw new ConfigError(`${label}: expected a file ending in .json, .md or .xml, got "${path}"`);
  }
  return Object.freeze({ path, format });
}

/** A switch's value: 1 or true is on; 0, false or empty is off; anything else is a mistake. */
function switchOn(source: Given | undefined): boolean {
  const value = source?.value.trim().toLowerCase() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${source?.label ?? ''}: expected 1, true, 0 or false, got "${value}"`);
}

/** The real service's base address: an absolute http: or https: URL, without trailing slash. */
function proxyTarget(label: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`${label}: "${value}" is not a URL like https://staging.example.com/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${label}: only http: and https: targets, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(`${label}: no credentials in the URL; clients send their own`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${label}: a base address has no query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Proxy mode's settings; its other options without --proxy-target are a mistake worth saying. */
function proxySettings(get: (name: OptionName) => Given | undefined): ProxySettings | undefined {
  const target = get('proxy-target');
  const timeout = get('proxy-timeout');
  const record = get('record');
  const strict = get('proxy-strict');
  const insecure = get('proxy-insecure');
  if (!target) {
    const on = (source: Given | undefined): Given | undefined =>
      switchOn(source) ? source : undefined;
    const orphan = [timeout, record, on(strict), on(insecure)].find((s) => s !== undefined);
    if (orphan) throw new ConfigError(`${orphan.label} needs --proxy-target`);
    return undefined;
  }
  if (record?.value.trim() === '') throw new ConfigError(`${record.label}: expected a file`);
  return Object.freeze({
    target: proxyTarget(target.label, target.value),
    timeoutMs: timeout
      ? integer(timeout.label, timeout.value, 1, MAX_PROXY_TIMEOUT_MS)
      : DEFAULT_PROXY_TIMEOUT_MS,
    strict: switchOn(strict),
    insecure: switchOn(insecure),
    recordPath: record?.value,
  });
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
  const apiKeys = apiKeysOf(guardOf('api-keys', raw, env));
  const db = get('db');
  const scenario = get('scenario');
  const scenariosDir = get('scenarios-dir');
  const maxSessions = get('max-sessions');
  const journalSize = get('journal-size');
  const adminToken = adminTokenOf(guardOf('admin-token', raw, env));
  const coverageReport = get('coverage-report');
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
    apiKeys,
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
    adminToken,
    admin: !(noAdmin || adminDisabledByEnv(env)),
    coverageReport: coverageReport && reportFile(coverageReport.label, coverageReport.value),
    proxy: proxySettings(get),
    connections: connectionLimitsOf(get),
    store: storeLimitsOf(get),
    journalBytes: sizeOf(get, 'journal-bytes', 64 * 1024, DEFAULT_JOURNAL_BYTES),
  };
  return { kind: 'run', config: Object.freeze(config) };
}

export { OPTIONS, helpText } from './settings.js';
