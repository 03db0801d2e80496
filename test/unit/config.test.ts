import {
  ConfigError,
  OPTIONS,
  helpText,
  loadConfig,
  type Config,
} from '../../src/config/load-config.js';
import {
  DEFAULT_CONNECTION_LIMITS,
  type ConnectionLimits,
} from '../../src/config/connection-limits.js';
import type { StoreLimits } from '../../src/state/store-budget.js';
import { defaultFixturesPath, defaultScenariosDir } from '../../src/util/paths.js';

/** The config of a command line that must run; fails the test on help/version. */
function runConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Config {
  const command = loadConfig(argv, env);
  if (command.kind !== 'run') throw new Error(`expected a run command, got ${command.kind}`);
  return command.config;
}

/** The ConfigError thrown by loadConfig; fails the test if it does not throw one. */
function configError(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    loadConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got ${String(error)}`);
  }
  throw new Error('expected a ConfigError, but loadConfig returned');
}

describe('loadConfig: defaults', () => {
  it('uses the documented defaults with no flags and an empty environment', () => {
    const config = runConfig([], {});
    expect(config).toEqual({
      port: 4010,
      host: '127.0.0.1',
      dbPath: undefined,
      seed: undefined,
      count: undefined,
      fixturesPath: defaultFixturesPath,
      apiKeys: [],
      defaultStatus: undefined,
      logLevel: 'info',
      corsOrigins: [],
      scenario: undefined,
      scenariosDir: defaultScenariosDir,
      maxSessions: 100,
      journalSize: 1000,
      adminToken: undefined,
      admin: true,
      coverageReport: undefined,
      proxy: undefined,
      connections: {
        maxConnections: 1000,
        maxQueuedBytes: 1024 * 1024,
        maxQueuedTotal: 64 * 1024 * 1024,
        maxPipelined: 100,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        writeTimeoutMs: 30_000,
      },
      store: { maxPets: 100_000, maxBytes: 256 * 1024 * 1024 },
      journalBytes: 64 * 1024 * 1024,
    });
    expect(runConfig([], {}).connections).toEqual(DEFAULT_CONNECTION_LIMITS);
  });

  it('uses the default fixtures file shipped with the package', () => {
    expect(defaultFixturesPath).toMatch(/fixtures[/\\]pets\.json$/);
  });

  it('ignores an environment variable set to the empty string', () => {
    const config = runConfig([], { PORT: '', HOST: '', MOCK_SEED: '', MOCK_LOG_LEVEL: '' });
    expect(config.port).toBe(4010);
    expect(config.host).toBe('127.0.0.1');
    expect(config.seed).toBeUndefined();
    expect(config.logLevel).toBe('info');
  });

  it('reads only the environment it is given, not process.env', () => {
    const saved = process.env.PORT;
    process.env.PORT = '5999';
    try {
      expect(runConfig([], {}).port).toBe(4010);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });
});

/** Some settings of a config, the connection limits among them. */
type ConfigPart = Partial<Omit<Config, 'connections' | 'store'>> & {
  connections?: Partial<ConnectionLimits>;
  store?: Partial<StoreLimits>;
};

interface OptionCase {
  flag: keyof typeof OPTIONS;
  env: string;
  envValue: string;
  /** Empty for a switch, which is given alone. */
  flagValue: string;
  fromEnv: ConfigPart;
  fromFlag: ConfigPart;
  /** Flags the option needs beside it (proxy mode's need --proxy-target). */
  needs?: string[];
}

const TARGET = 'http://127.0.0.1:8080/v1';
const PROXY = { target: TARGET, timeoutMs: 10_000, strict: false, insecure: false };

/** The command line that gives a case's flag (alone, for a switch). */
function flagArgs({ flag, flagValue, needs = [] }: OptionCase): string[] {
  return [...needs, `--${flag}`, ...(flagValue === '' ? [] : [flagValue])];
}

/** The case of a connection limit, read as an integer. */
function limitCase(
  flag: keyof typeof OPTIONS,
  key: keyof ConnectionLimits,
  envValue: number,
  flagValue: number,
): OptionCase {
  return {
    flag,
    env: OPTIONS[flag].env,
    envValue: String(envValue),
    flagValue: String(flagValue),
    fromEnv: { connections: { [key]: envValue } },
    fromFlag: { connections: { [key]: flagValue } },
  };
}

const OPTION_CASES: OptionCase[] = [
  {
    flag: 'port',
    env: 'PORT',
    envValue: '5000',
    flagValue: '6000',
    fromEnv: { port: 5000 },
    fromFlag: { port: 6000 },
  },
  {
    flag: 'host',
    env: 'HOST',
    envValue: '0.0.0.0',
    flagValue: '::1',
    fromEnv: { host: '0.0.0.0' },
    fromFlag: { host: '::1' },
  },
  {
    flag: 'db',
    env: 'MOCK_DB',
    envValue: '/data/env.json',
    flagValue: '/data/flag.json',
    fromEnv: { dbPath: '/data/env.json' },
    fromFlag: { dbPath: '/data/flag.json' },
  },
  {
    flag: 'seed',
    env: 'MOCK_SEED',
    envValue: '42',
    flagValue: '43',
    fromEnv: { seed: 42, count: 100 },
    fromFlag: { seed: 43, count: 100 },
  },
  {
    flag: 'count',
    env: 'MOCK_COUNT',
    envValue: '200',
    flagValue: '7',
    fromEnv: { seed: 1, count: 200 },
    fromFlag: { seed: 1, count: 7 },
  },
  {
    flag: 'fixtures',
    env: 'MOCK_FIXTURES',
    envValue: '/data/env-pets.json',
    flagValue: '/data/flag-pets.json',
    fromEnv: { fixturesPath: '/data/env-pets.json', seed: undefined },
    fromFlag: { fixturesPath: '/data/flag-pets.json', seed: undefined },
  },
  {
    flag: 'api-keys',
    env: 'MOCK_API_KEYS',
    envValue: 'k1,k2',
    flagValue: 'k3',
    fromEnv: { apiKeys: ['k1', 'k2'] },
    fromFlag: { apiKeys: ['k3'] },
  },
  {
    flag: 'default-status',
    env: 'MOCK_DEFAULT_STATUS',
    envValue: 'pending',
    flagValue: 'sold',
    fromEnv: { defaultStatus: 'pending' },
    fromFlag: { defaultStatus: 'sold' },
  },
  {
    flag: 'log-level',
    env: 'MOCK_LOG_LEVEL',
    envValue: 'debug',
    flagValue: 'silent',
    fromEnv: { logLevel: 'debug' },
    fromFlag: { logLevel: 'silent' },
  },
  {
    flag: 'cors-origin',
    env: 'MOCK_CORS_ORIGIN',
    envValue: 'http://localhost:3000,https://app.example.com',
    flagValue: '*',
    fromEnv: { corsOrigins: ['http://localhost:3000', 'https://app.example.com'] },
    fromFlag: { corsOrigins: ['*'] },
  },
  {
    flag: 'scenario',
    env: 'MOCK_SCENARIO',
    envValue: 'slow',
    flagValue: 'not-found',
    fromEnv: { scenario: 'slow' },
    fromFlag: { scenario: 'not-found' },
  },
  {
    flag: 'scenarios-dir',
    env: 'MOCK_SCENARIOS_DIR',
    envValue: '/data/env-scenarios',
    flagValue: '/data/flag-scenarios',
    fromEnv: { scenariosDir: '/data/env-scenarios' },
    fromFlag: { scenariosDir: '/data/flag-scenarios' },
  },
  {
    flag: 'max-sessions',
    env: 'MOCK_MAX_SESSIONS',
    envValue: '5',
    flagValue: '6',
    fromEnv: { maxSessions: 5 },
    fromFlag: { maxSessions: 6 },
  },
  {
    flag: 'journal-size',
    env: 'MOCK_JOURNAL_SIZE',
    envValue: '10',
    flagValue: '0',
    fromEnv: { journalSize: 10 },
    fromFlag: { journalSize: 0 },
  },
  {
    flag: 'admin-token',
    env: 'MOCK_ADMIN_TOKEN',
    envValue: 'env-secret',
    flagValue: 'flag-secret',
    fromEnv: { adminToken: 'env-secret' },
    fromFlag: { adminToken: 'flag-secret' },
  },
  {
    flag: 'coverage-report',
    env: 'MOCK_COVERAGE_REPORT',
    envValue: '/data/coverage.xml',
    flagValue: 'out/coverage.MD',
    fromEnv: { coverageReport: { path: '/data/coverage.xml', format: 'junit' } },
    fromFlag: { coverageReport: { path: 'out/coverage.MD', format: 'markdown' } },
  },
  {
    flag: 'proxy-target',
    env: 'MOCK_PROXY_TARGET',
    envValue: 'https://staging.example.com/v1/',
    flagValue: TARGET,
    fromEnv: {
      proxy: { ...PROXY, target: 'https://staging.example.com/v1', recordPath: undefined },
    },
    fromFlag: { proxy: { ...PROXY, recordPath: undefined } },
  },
  {
    flag: 'proxy-strict',
    env: 'MOCK_PROXY_STRICT',
    envValue: '1',
    flagValue: '',
    fromEnv: { proxy: { ...PROXY, strict: true, recordPath: undefined } },
    fromFlag: { proxy: { ...PROXY, strict: true, recordPath: undefined } },
    needs: ['--proxy-target', TARGET],
  },
  {
    flag: 'proxy-timeout',
    env: 'MOCK_PROXY_TIMEOUT',
    envValue: '2500',
    flagValue: '300',
    fromEnv: { proxy: { ...PROXY, timeoutMs: 2500, recordPath: undefined } },
    fromFlag: { proxy: { ...PROXY, timeoutMs: 300, recordPath: undefined } },
    needs: ['--proxy-target', TARGET],
  },
  {
    flag: 'proxy-insecure',
    env: 'MOCK_PROXY_INSECURE',
    envValue: 'true',
    flagValue: '',
    fromEnv: { proxy: { ...PROXY, insecure: true, recordPath: undefined } },
    fromFlag: { proxy: { ...PROXY, insecure: true, recordPath: undefined } },
    needs: ['--proxy-target', TARGET],
  },
  {
    flag: 'record',
    env: 'MOCK_RECORD',
    envValue: '/data/env-seen.json',
    flagValue: '/data/flag-seen.json',
    fromEnv: { proxy: { ...PROXY, recordPath: '/data/env-seen.json' } },
    fromFlag: { proxy: { ...PROXY, recordPath: '/data/flag-seen.json' } },
    needs: ['--proxy-target', TARGET],
  },
  {
    flag: 'journal-bytes',
    env: 'MOCK_JOURNAL_BYTES',
    envValue: '1048576',
    flagValue: '2097152',
    fromEnv: { journalBytes: 1_048_576 },
    fromFlag: { journalBytes: 2_097_152 },
  },
  {
    flag: 'max-pets',
    env: 'MOCK_MAX_PETS',
    envValue: '10',
    flagValue: '0',
    fromEnv: { store: { maxPets: 10 } },
    fromFlag: { store: { maxPets: 0 } },
  },
  {
    flag: 'max-store-bytes',
    env: 'MOCK_MAX_STORE_BYTES',
    envValue: '1048576',
    flagValue: '5000000',
    fromEnv: { store: { maxBytes: 1_048_576 } },
    fromFlag: { store: { maxBytes: 5_000_000 } },
  },
  limitCase('max-connections', 'maxConnections', 50, 60),
  limitCase('max-queued-bytes', 'maxQueuedBytes', 65_536, 131_072),
  limitCase('max-queued-total', 'maxQueuedTotal', 8_388_608, 16_777_216),
  limitCase('max-pipelined', 'maxPipelined', 10, 20),
  limitCase('headers-timeout', 'headersTimeoutMs', 2_000, 3_000),
  limitCase('request-timeout', 'requestTimeoutMs', 20_000, 40_000),
  limitCase('keep-alive-timeout', 'keepAliveTimeoutMs', 1_000, 2_000),
  limitCase('write-timeout', 'writeTimeoutMs', 5_000, 6_000),
];

describe('loadConfig: every option from its environment variable and its flag', () => {
  it('covers every option of the OPTIONS table with its documented variable', () => {
    expect(OPTION_CASES.map((c) => c.flag).sort()).toEqual(Object.keys(OPTIONS).sort());
    for (const c of OPTION_CASES) expect(OPTIONS[c.flag].env).toBe(c.env);
  });

  it.each(OPTION_CASES)('reads --$flag from $env', ({ env, envValue, fromEnv, needs = [] }) => {
    expect(runConfig(needs, { [env]: envValue })).toMatchObject(fromEnv);
  });

  it.each(OPTION_CASES)('reads --$flag from the flag', (c) => {
    expect(runConfig(flagArgs(c), {})).toMatchObject(c.fromFlag);
  });

  it.each(OPTION_CASES.filter((c) => c.flagValue !== ''))(
    'reads --$flag=value too',
    ({ flag, flagValue, fromFlag, needs = [] }) => {
      expect(runConfig([...needs, `--${flag}=${flagValue}`], {})).toMatchObject(fromFlag);
    },
  );

  it.each(OPTION_CASES.filter((c) => c.flagValue !== ''))('lets --$flag win over $env', (c) => {
    expect(runConfig(flagArgs(c), { [c.env]: c.envValue })).toMatchObject(c.fromFlag);
  });

  it('combines flags and variables of different options', () => {
    const config = runConfig(['--port', '0', '--seed', '9'], {
      HOST: '0.0.0.0',
      MOCK_COUNT: '12',
      MOCK_API_KEYS: ' a , b ,',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      seed: 9,
      count: 12,
      apiKeys: ['a', 'b'],
    });
  });

  it('accepts port 0 (any free port) and 65535', () => {
    expect(runConfig(['--port', '0']).port).toBe(0);
    expect(runConfig(['--port', '65535']).port).toBe(65535);
  });

  it('gives count 100 to --seed alone and seed 1 to --count alone', () => {
    expect(runConfig(['--seed', '5'])).toMatchObject({ seed: 5, count: 100 });
    expect(runConfig(['--count', '3'])).toMatchObject({ seed: 1, count: 3 });
  });

  it('accepts count 0 and seed 0', () => {
    expect(runConfig(['--seed', '0', '--count', '0'])).toMatchObject({ seed: 0, count: 0 });
  });
});

interface BadCase {
  what: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  names: string;
}

const BAD_VALUES: BadCase[] = [
  {
    what: '--coverage-report report.txt',
    argv: ['--coverage-report', 'report.txt'],
    env: {},
    names: '--coverage-report',
  },
  {
    what: 'MOCK_COVERAGE_REPORT=report',
    argv: [],
    env: { MOCK_COVERAGE_REPORT: 'report' },
    names: 'MOCK_COVERAGE_REPORT',
  },
  { what: '--port 70000', argv: ['--port', '70000'], env: {}, names: '--port' },
  { what: 'PORT=70000', argv: [], env: { PORT: '70000' }, names: 'PORT' },
  { what: '--port 65536', argv: ['--port', '65536'], env: {}, names: '--port' },
  { what: '--port abc', argv: ['--port', 'abc'], env: {}, names: '--port' },
  { what: 'PORT=abc', argv: [], env: { PORT: 'abc' }, names: 'PORT' },
  { what: '--port 80.5', argv: ['--port', '80.5'], env: {}, names: '--port' },
  { what: '--count=-1', argv: ['--count=-1'], env: {}, names: '--count' },
  { what: '--count -1', argv: ['--count', '-1'], env: {}, names: '--count' },
  { what: 'MOCK_COUNT=-1', argv: [], env: { MOCK_COUNT: '-1' }, names: 'MOCK_COUNT' },
  { what: '--seed x', argv: ['--seed', 'x'], env: {}, names: '--seed' },
  { what: 'MOCK_SEED=x', argv: [], env: { MOCK_SEED: 'x' }, names: 'MOCK_SEED' },
  {
    what: '--default-status lost',
    argv: ['--default-status', 'lost'],
    env: {},
    names: '--default-status',
  },
  {
    what: 'MOCK_DEFAULT_STATUS=lost',
    argv: [],
    env: { MOCK_DEFAULT_STATUS: 'lost' },
    names: 'MOCK_DEFAULT_STATUS',
  },
  { what: '--log-level loud', argv: ['--log-level', 'loud'], env: {}, names: '--log-level' },
  {
    what: 'MOCK_LOG_LEVEL=loud',
    argv: [],
    env: { MOCK_LOG_LEVEL: 'loud' },
    names: 'MOCK_LOG_LEVEL',
  },
  {
    what: '--cors-origin not-an-origin',
    argv: ['--cors-origin', 'not-an-origin'],
    env: {},
    names: '--cors-origin',
  },
  {
    what: 'MOCK_CORS_ORIGIN=not-an-origin',
    argv: [],
    env: { MOCK_CORS_ORIGIN: 'not-an-origin' },
    names: 'MOCK_CORS_ORIGIN',
  },
  {
    what: '--max-sessions 0',
    argv: ['--max-sessions', '0'],
    env: {},
    names: '--max-sessions',
  },
  {
    what: 'MOCK_JOURNAL_SIZE=many',
    argv: [],
    env: { MOCK_JOURNAL_SIZE: 'many' },
    names: 'MOCK_JOURNAL_SIZE',
  },
  {
    what: '--max-connections 0',
    argv: ['--max-connections', '0'],
    env: {},
    names: '--max-connections',
  },
  {
    what: 'MOCK_MAX_PIPELINED=lots',
    argv: [],
    env: { MOCK_MAX_PIPELINED: 'lots' },
    names: 'MOCK_MAX_PIPELINED',
  },
  {
    what: '--headers-timeout 50 (under 100 ms)',
    argv: ['--headers-timeout', '50'],
    env: {},
    names: '--headers-timeout',
  },
  {
    what: 'MOCK_WRITE_TIMEOUT=1.5',
    argv: [],
    env: { MOCK_WRITE_TIMEOUT: '1.5' },
    names: 'MOCK_WRITE_TIMEOUT',
  },
  {
    what: '--headers-timeout longer than the request timeout',
    argv: ['--headers-timeout', '40000'],
    env: {},
    names: '--headers-timeout',
  },
  {
    what: 'MOCK_REQUEST_TIMEOUT shorter than the headers timeout',
    argv: [],
    env: { MOCK_REQUEST_TIMEOUT: '5000' },
    names: 'MOCK_REQUEST_TIMEOUT',
  },
  {
    what: '--max-queued-bytes over --max-queued-total',
    argv: ['--max-queued-bytes', '2097152', '--max-queued-total', '1048576'],
    env: {},
    names: '--max-queued-bytes',
  },
  {
    what: '--cors-origin with a path',
    argv: ['--cors-origin', 'http://localhost:3000/app'],
    env: {},
    names: '--cors-origin',
  },
  { what: 'an ftp: target', argv: ['--proxy-target', 'ftp://x/v1'], env: {}, names: 'ftp:' },
  {
    what: 'a target that is no URL',
    argv: [],
    env: { MOCK_PROXY_TARGET: 'staging/v1' },
    names: 'MOCK_PROXY_TARGET',
  },
  {
    what: 'credentials in the target',
    argv: ['--proxy-target', 'https://me:secret@staging.example.com/v1'],
    env: {},
    names: 'credentials',
  },
  {
    what: 'a query in the target',
    argv: ['--proxy-target', 'https://staging.example.com/v1?x=1'],
    env: {},
    names: '--proxy-target',
  },
  {
    what: '--proxy-timeout 0',
    argv: ['--proxy-target', TARGET, '--proxy-timeout', '0'],
    env: {},
    names: '--proxy-timeout',
  },
  {
    what: 'MOCK_PROXY_STRICT=maybe',
    argv: ['--proxy-target', TARGET],
    env: { MOCK_PROXY_STRICT: 'maybe' },
    names: 'MOCK_PROXY_STRICT',
  },
  {
    what: '--proxy-strict without a target',
    argv: ['--proxy-strict'],
    env: {},
    names: '--proxy-strict needs --proxy-target',
  },
  {
    what: 'MOCK_RECORD without a target',
    argv: [],
    env: { MOCK_RECORD: 'seen.json' },
    names: 'MOCK_RECORD needs --proxy-target',
  },
  {
    what: '--proxy-strict=1 (a switch takes no value)',
    argv: ['--proxy-target', TARGET, '--proxy-strict=1'],
    env: {},
    names: '--proxy-strict',
  },
];

describe('loadConfig: bad values', () => {
  it.each(BAD_VALUES)(
    '$what throws a one-line ConfigError naming $names',
    ({ argv, env, names }) => {
      const error = configError(argv, env);
      expect(error.message).toContain(names);
      expect(error.message).not.toContain('\n');
      expect(error.message.trim()).not.toBe('');
    },
  );

  it('names the flag, not the variable, when a bad flag overrides a good variable', () => {
    const error = configError(['--port', 'abc'], { PORT: '5000' });
    expect(error.message).toContain('--port');
  });

  it('names the bad value', () => {
    expect(configError(['--log-level', 'loud']).message).toContain('loud');
    expect(configError([], { PORT: '70000' }).message).toContain('70000');
  });

  it('throws a one-line ConfigError naming an unknown flag', () => {
    const error = configError(['--nope']);
    expect(error.message).toContain('--nope');
    expect(error.message).not.toContain('\n');
  });

  it('throws a one-line ConfigError for a positional argument', () => {
    const error = configError(['serve']);
    expect(error.message).toContain('serve');
    expect(error.message).not.toContain('\n');
  });

  it.each([
    {
      argv: ['--count', '-1'],
      message: '--count: expected an integer from 0 to 1000000, got "-1"',
    },
    {
      argv: ['--seed', '-3'],
      message: '--seed: expected an integer from 0 to 4294967295, got "-3"',
    },
    { argv: ['--port', '-80'], message: '--port: expected an integer from 0 to 65535, got "-80"' },
  ])('checks a value that starts with a dash like any other: $argv', ({ argv, message }) => {
    expect(configError(argv).message).toBe(message);
    expect(configError([argv.join('=')]).message).toBe(message);
  });

  it('still reads a flag after an option as a flag, not as its value', () => {
    expect(configError(['--count', '--seed', '1']).message).toContain('--count');
    expect(configError(['--count', '-h']).message).toContain('--count');
  });

  it('throws a ConfigError for a flag given without its value', () => {
    const error = configError(['--port']);
    expect(error.message).toContain('--port');
    expect(error.message).not.toContain('\n');
  });

  it.each([
    { what: '--fixtures with --seed', argv: ['--fixtures', 'a.json', '--seed', '1'], env: {} },
    { what: '--fixtures with --count', argv: ['--fixtures', 'a.json', '--count', '5'], env: {} },
    {
      what: 'MOCK_FIXTURES with MOCK_SEED',
      argv: [],
      env: { MOCK_FIXTURES: 'a.json', MOCK_SEED: '1' },
    },
  ])('refuses $what with a one-line ConfigError', ({ argv, env }) => {
    const error = configError(argv, env);
    expect(error.message).toMatch(/--fixtures|MOCK_FIXTURES/);
    expect(error.message).toMatch(/--seed|--count|MOCK_SEED/);
    expect(error.message).not.toContain('\n');
  });
});

describe('loadConfig: --help and --version', () => {
  it.each([['--help'], ['-h']])('%s asks for help', (flag) => {
    expect(loadConfig([flag], {})).toEqual({ kind: 'help' });
  });

  it.each([['--version'], ['-v']])('%s asks for the version', (flag) => {
    expect(loadConfig([flag], {})).toEqual({ kind: 'version' });
  });

  it('gives help even when the environment holds a bad value', () => {
    expect(loadConfig(['--help'], { PORT: 'abc' })).toEqual({ kind: 'help' });
  });

  it('documents every flag with its environment variable and default in the help text', () => {
    const text = helpText();
    for (const [name, doc] of Object.entries(OPTIONS)) {
      expect(text).toContain(`--${name}`);
      expect(text).toContain(doc.env);
      expect(text).toContain(doc.fallback);
    }
    expect(text).toContain('--help');
    expect(text).toContain('--version');
  });
});

describe('loadConfig: a read-only config', () => {
  it('returns a frozen config', () => {
    const config = runConfig(['--api-keys', 'k1'], {});
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('does not change the argv or env it is given', () => {
    const argv = ['--port', '0', '--seed', '3'];
    const env: NodeJS.ProcessEnv = { HOST: '0.0.0.0', MOCK_COUNT: '4' };
    runConfig(argv, env);
    expect(argv).toEqual(['--port', '0', '--seed', '3']);
    expect(env).toEqual({ HOST: '0.0.0.0', MOCK_COUNT: '4' });
  });

  it('gives independent configs to independent calls', () => {
    const first = runConfig(['--api-keys', 'a']);
    const second = runConfig(['--api-keys', 'b']);
    expect(first.apiKeys).toEqual(['a']);
    expect(second.apiKeys).toEqual(['b']);
  });
});

describe('proxy mode switches', () => {
  it('are off with 0 or false, and then need no target', () => {
    expect(runConfig([], { MOCK_PROXY_STRICT: '0', MOCK_PROXY_INSECURE: 'false' }).proxy).toBe(
      undefined,
    );
    expect(
      runConfig(['--proxy-target', TARGET], { MOCK_PROXY_STRICT: 'false' }).proxy?.strict,
    ).toBe(false);
  });
});

describe('--no-admin', () => {
  function runConfig(argv: string[], env: NodeJS.ProcessEnv = {}) {
    const command = loadConfig(argv, env);
    if (command.kind !== 'run') throw new Error('expected a run command');
    return command.config;
  }

  it('keeps the admin API by default', () => {
    expect(runConfig([]).admin).toBe(true);
  });

  it('turns it off with the flag or MOCK_NO_ADMIN=1/true', () => {
    expect(runConfig(['--no-admin']).admin).toBe(false);
    expect(runConfig([], { MOCK_NO_ADMIN: '1' }).admin).toBe(false);
    expect(runConfig([], { MOCK_NO_ADMIN: 'true' }).admin).toBe(false);
    expect(runConfig([], { MOCK_NO_ADMIN: '0' }).admin).toBe(true);
  });

  it('refuses another MOCK_NO_ADMIN value, naming it', () => {
    expect(() => loadConfig([], { MOCK_NO_ADMIN: 'maybe' })).toThrow(/MOCK_NO_ADMIN/);
  });
});

describe('settings that guard access never fail open', () => {
  it.each([
    { what: 'MOCK_ADMIN_TOKEN= (empty)', argv: [], env: { MOCK_ADMIN_TOKEN: '' } },
    { what: 'MOCK_ADMIN_TOKEN of spaces', argv: [], env: { MOCK_ADMIN_TOKEN: '  ' } },
    { what: "--admin-token ''", argv: ['--admin-token', ''], env: {} },
    { what: '--admin-token= (empty)', argv: ['--admin-token='], env: {} },
    { what: "--admin-token ' '", argv: ['--admin-token', ' '], env: {} },
    {
      what: "--admin-token '' over a good MOCK_ADMIN_TOKEN",
      argv: ['--admin-token', ''],
      env: { MOCK_ADMIN_TOKEN: 'good' },
    },
  ])('$what refuses the start, naming the setting', ({ argv, env }) => {
    const error = configError(argv, env);
    expect(error.message).toMatch(/--admin-token|MOCK_ADMIN_TOKEN/);
    expect(error.message).toContain('empty');
    expect(error.message).not.toContain('\n');
  });

  it.each([
    { what: 'MOCK_API_KEYS= (empty)', argv: [], env: { MOCK_API_KEYS: '' } },
    { what: 'MOCK_API_KEYS=,,,', argv: [], env: { MOCK_API_KEYS: ',,,' } },
    { what: 'MOCK_API_KEYS of spaces and commas', argv: [], env: { MOCK_API_KEYS: ' , ,' } },
    { what: "--api-keys ''", argv: ['--api-keys', ''], env: {} },
    { what: '--api-keys ,,,', argv: ['--api-keys', ',,,'], env: {} },
    { what: '--api-keys=,', argv: ['--api-keys=,'], env: {} },
  ])('$what refuses the start, naming the setting', ({ argv, env }) => {
    const error = configError(argv, env);
    expect(error.message).toMatch(/--api-keys|MOCK_API_KEYS/);
    expect(error.message).toContain('no key');
    expect(error.message).not.toContain('\n');
  });

  it('trims the admin token, and keeps the non-empty keys of a list with gaps', () => {
    expect(runConfig([], { MOCK_ADMIN_TOKEN: ' secret\n' }).adminToken).toBe('secret');
    expect(runConfig(['--api-keys', ',k1,,k2,'], {}).apiKeys).toEqual(['k1', 'k2']);
  });

  it('leaves admin open and accepts any token when neither is given at all', () => {
    expect(runConfig([], {})).toMatchObject({ adminToken: undefined, apiKeys: [] });
  });
});
