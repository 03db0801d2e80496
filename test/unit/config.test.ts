import { helpText } from '../../src/config/help.js';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import {
  SETTING_NAMES,
  envOf,
  flagOf,
  settingOf,
  type Config,
  type SettingName,
} from '../../src/config/settings.js';
import { defaultContractPath, defaultFixturesPath } from '../../src/util/paths.js';

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

const MIB = 1024 * 1024;

describe('loadConfig: defaults', () => {
  it('uses the documented defaults with no flags and an empty environment', () => {
    // Written out, not read from SETTINGS: the table's defaults are what is under test.
    const expected: Config = {
      port: 4010,
      host: '127.0.0.1',
      contract: defaultContractPath,
      watch: false,
      db: undefined,
      stateUrl: undefined,
      statePrefix: 'petstore-mock:',
      stateTimeout: 2000,
      sessionTtl: 3_600_000,
      seed: undefined,
      count: undefined,
      itemCount: 3,
      fixtures: defaultFixturesPath,
      apiKeys: [],
      defaultStatus: undefined,
      resources: 'infer',
      brokenExamples: 'generate',
      logLevel: 'info',
      corsOrigin: [],
      scenario: undefined,
      scenariosDir: undefined,
      maxSessions: 100,
      journalSize: 1000,
      journalBytes: 64 * MIB,
      maxPets: 100_000,
      maxStoreBytes: 256 * MIB,
      adminToken: undefined,
      noAdmin: false,
      coverageReport: undefined,
      proxyTarget: undefined,
      proxyStrict: false,
      proxyTimeout: 10_000,
      proxyInsecure: false,
      record: undefined,
      maxConnections: 1000,
      maxQueuedBytes: MIB,
      maxQueuedTotal: 64 * MIB,
      maxPipelined: 100,
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      writeTimeout: 30_000,
    };
    const config = runConfig([], {});
    expect(config).toEqual(expected);
    // toEqual passes over a key that is undefined on one side and absent on the other.
    expect(Object.keys(config).sort()).toEqual(Object.keys(expected).sort());
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

interface OptionCase {
  name: SettingName;
  /** The documented flag, without its dashes. */
  flag: string;
  /** The documented environment variable. */
  env: string;
  envValue: string;
  /** Empty for a switch, which is given alone. */
  flagValue: string;
  fromEnv: Partial<Config>;
  fromFlag: Partial<Config>;
  /** Flags the option needs beside it (proxy mode's need --proxy-target). */
  needs?: string[];
}

const TARGET = 'http://127.0.0.1:8080/v1';
/** The proxy settings with --proxy-target TARGET and nothing else. */
const PROXY: Partial<Config> = {
  proxyTarget: TARGET,
  proxyStrict: false,
  proxyTimeout: 10_000,
  proxyInsecure: false,
  record: undefined,
};

/** The command line that gives a case's flag (alone, for a switch). */
function flagArgs({ flag, flagValue, needs = [] }: OptionCase): string[] {
  return [...needs, `--${flag}`, ...(flagValue === '' ? [] : [flagValue])];
}

/** The case of an integer setting that no other setting depends on. */
function integerCase(
  name: SettingName,
  flag: string,
  env: string,
  envValue: number,
  flagValue: number,
): OptionCase {
  return {
    name,
    flag,
    env,
    envValue: String(envValue),
    flagValue: String(flagValue),
    fromEnv: { [name]: envValue },
    fromFlag: { [name]: flagValue },
  };
}

const OPTION_CASES: OptionCase[] = [
  {
    name: 'port',
    flag: 'port',
    env: 'PORT',
    envValue: '5000',
    flagValue: '6000',
    fromEnv: { port: 5000 },
    fromFlag: { port: 6000 },
  },
  {
    name: 'host',
    flag: 'host',
    env: 'HOST',
    envValue: '0.0.0.0',
    flagValue: '::1',
    fromEnv: { host: '0.0.0.0' },
    fromFlag: { host: '::1' },
  },
  {
    name: 'db',
    flag: 'db',
    env: 'MOCK_DB',
    envValue: '/data/env.json',
    flagValue: '/data/flag.json',
    fromEnv: { db: '/data/env.json' },
    fromFlag: { db: '/data/flag.json' },
  },
  {
    name: 'contract',
    flag: 'contract',
    env: 'MOCK_CONTRACT',
    envValue: '/repo/env.yaml',
    flagValue: '/repo/flag.yaml',
    fromEnv: { contract: '/repo/env.yaml' },
    fromFlag: { contract: '/repo/flag.yaml' },
  },
  {
    name: 'watch',
    flag: 'watch',
    env: 'MOCK_WATCH',
    envValue: '1',
    flagValue: '',
    fromEnv: { watch: true },
    fromFlag: { watch: true },
  },
  {
    name: 'stateUrl',
    flag: 'state-url',
    env: 'MOCK_STATE_URL',
    envValue: 'redis://10.0.0.5:6379/2',
    flagValue: 'rediss://user:secret@redis.example:6380',
    fromEnv: { stateUrl: 'redis://10.0.0.5:6379/2' },
    fromFlag: { stateUrl: 'rediss://user:secret@redis.example:6380' },
  },
  {
    name: 'statePrefix',
    flag: 'state-prefix',
    env: 'MOCK_STATE_PREFIX',
    envValue: 'team-a:',
    flagValue: 'team-b:',
    fromEnv: { statePrefix: 'team-a:' },
    fromFlag: { statePrefix: 'team-b:' },
  },
  integerCase('stateTimeout', 'state-timeout', 'MOCK_STATE_TIMEOUT', 500, 5000),
  integerCase('sessionTtl', 'session-ttl', 'MOCK_SESSION_TTL', 60_000, 120_000),
  {
    // The config keeps what was given: the count of --seed alone is chosen by the server.
    name: 'seed',
    flag: 'seed',
    env: 'MOCK_SEED',
    envValue: '42',
    flagValue: '43',
    fromEnv: { seed: 42, count: undefined },
    fromFlag: { seed: 43, count: undefined },
  },
  {
    name: 'itemCount',
    flag: 'item-count',
    env: 'MOCK_ITEM_COUNT',
    envValue: '10',
    flagValue: '0',
    fromEnv: { itemCount: 10 },
    fromFlag: { itemCount: 0 },
  },
  {
    name: 'count',
    flag: 'count',
    env: 'MOCK_COUNT',
    envValue: '200',
    flagValue: '7',
    fromEnv: { seed: undefined, count: 200 },
    fromFlag: { seed: undefined, count: 7 },
  },
  {
    name: 'fixtures',
    flag: 'fixtures',
    env: 'MOCK_FIXTURES',
    envValue: '/data/env-pets.json',
    flagValue: '/data/flag-pets.json',
    fromEnv: { fixtures: '/data/env-pets.json', seed: undefined },
    fromFlag: { fixtures: '/data/flag-pets.json', seed: undefined },
  },
  {
    name: 'apiKeys',
    flag: 'api-keys',
    env: 'MOCK_API_KEYS',
    envValue: 'k1,k2',
    flagValue: 'k3',
    fromEnv: { apiKeys: ['k1', 'k2'] },
    fromFlag: { apiKeys: ['k3'] },
  },
  {
    name: 'defaultStatus',
    flag: 'default-status',
    env: 'MOCK_DEFAULT_STATUS',
    envValue: 'pending',
    flagValue: 'sold',
    fromEnv: { defaultStatus: 'pending' },
    fromFlag: { defaultStatus: 'sold' },
  },
  {
    name: 'resources',
    flag: 'resources',
    env: 'MOCK_RESOURCES',
    envValue: 'off',
    flagValue: 'infer',
    fromEnv: { resources: 'off' },
    fromFlag: { resources: 'infer' },
  },
  {
    name: 'brokenExamples',
    flag: 'broken-examples',
    env: 'MOCK_BROKEN_EXAMPLES',
    envValue: 'serve',
    flagValue: 'generate',
    fromEnv: { brokenExamples: 'serve' },
    fromFlag: { brokenExamples: 'generate' },
  },
  {
    name: 'logLevel',
    flag: 'log-level',
    env: 'MOCK_LOG_LEVEL',
    envValue: 'debug',
    flagValue: 'silent',
    fromEnv: { logLevel: 'debug' },
    fromFlag: { logLevel: 'silent' },
  },
  {
    name: 'corsOrigin',
    flag: 'cors-origin',
    env: 'MOCK_CORS_ORIGIN',
    envValue: 'http://localhost:3000,https://app.example.com',
    flagValue: '*',
    fromEnv: { corsOrigin: ['http://localhost:3000', 'https://app.example.com'] },
    fromFlag: { corsOrigin: ['*'] },
  },
  {
    name: 'scenario',
    flag: 'scenario',
    env: 'MOCK_SCENARIO',
    envValue: 'slow',
    flagValue: 'not-found',
    fromEnv: { scenario: 'slow' },
    fromFlag: { scenario: 'not-found' },
  },
  {
    name: 'scenariosDir',
    flag: 'scenarios-dir',
    env: 'MOCK_SCENARIOS_DIR',
    envValue: '/data/env-scenarios',
    flagValue: '/data/flag-scenarios',
    fromEnv: { scenariosDir: '/data/env-scenarios' },
    fromFlag: { scenariosDir: '/data/flag-scenarios' },
  },
  integerCase('maxSessions', 'max-sessions', 'MOCK_MAX_SESSIONS', 5, 6),
  integerCase('journalSize', 'journal-size', 'MOCK_JOURNAL_SIZE', 10, 0),
  {
    name: 'adminToken',
    flag: 'admin-token',
    env: 'MOCK_ADMIN_TOKEN',
    envValue: 'env-secret',
    flagValue: 'flag-secret',
    fromEnv: { adminToken: 'env-secret' },
    fromFlag: { adminToken: 'flag-secret' },
  },
  {
    name: 'noAdmin',
    flag: 'no-admin',
    env: 'MOCK_NO_ADMIN',
    envValue: '1',
    flagValue: '',
    fromEnv: { noAdmin: true },
    fromFlag: { noAdmin: true },
  },
  {
    // The config keeps the path; the report's format is read from its extension where it is written.
    name: 'coverageReport',
    flag: 'coverage-report',
    env: 'MOCK_COVERAGE_REPORT',
    envValue: '/data/coverage.xml',
    flagValue: 'out/coverage.MD',
    fromEnv: { coverageReport: '/data/coverage.xml' },
    fromFlag: { coverageReport: 'out/coverage.MD' },
  },
  {
    name: 'proxyTarget',
    flag: 'proxy-target',
    env: 'MOCK_PROXY_TARGET',
    envValue: 'https://staging.example.com/v1/',
    flagValue: TARGET,
    fromEnv: { ...PROXY, proxyTarget: 'https://staging.example.com/v1' },
    fromFlag: PROXY,
  },
  {
    name: 'proxyStrict',
    flag: 'proxy-strict',
    env: 'MOCK_PROXY_STRICT',
    envValue: '1',
    flagValue: '',
    fromEnv: { ...PROXY, proxyStrict: true },
    fromFlag: { ...PROXY, proxyStrict: true },
    needs: ['--proxy-target', TARGET],
  },
  {
    name: 'proxyTimeout',
    flag: 'proxy-timeout',
    env: 'MOCK_PROXY_TIMEOUT',
    envValue: '2500',
    flagValue: '300',
    fromEnv: { ...PROXY, proxyTimeout: 2500 },
    fromFlag: { ...PROXY, proxyTimeout: 300 },
    needs: ['--proxy-target', TARGET],
  },
  {
    name: 'proxyInsecure',
    flag: 'proxy-insecure',
    env: 'MOCK_PROXY_INSECURE',
    envValue: 'true',
    flagValue: '',
    fromEnv: { ...PROXY, proxyInsecure: true },
    fromFlag: { ...PROXY, proxyInsecure: true },
    needs: ['--proxy-target', TARGET],
  },
  {
    name: 'record',
    flag: 'record',
    env: 'MOCK_RECORD',
    envValue: '/data/env-seen.json',
    flagValue: '/data/flag-seen.json',
    fromEnv: { ...PROXY, record: '/data/env-seen.json' },
    fromFlag: { ...PROXY, record: '/data/flag-seen.json' },
    needs: ['--proxy-target', TARGET],
  },
  integerCase('journalBytes', 'journal-bytes', 'MOCK_JOURNAL_BYTES', 1_048_576, 2_097_152),
  integerCase('maxPets', 'max-pets', 'MOCK_MAX_PETS', 10, 0),
  integerCase('maxStoreBytes', 'max-store-bytes', 'MOCK_MAX_STORE_BYTES', 1_048_576, 5_000_000),
  integerCase('maxConnections', 'max-connections', 'MOCK_MAX_CONNECTIONS', 50, 60),
  integerCase('maxQueuedBytes', 'max-queued-bytes', 'MOCK_MAX_QUEUED_BYTES', 65_536, 131_072),
  integerCase('maxQueuedTotal', 'max-queued-total', 'MOCK_MAX_QUEUED_TOTAL', 8_388_608, 16_777_216),
  integerCase('maxPipelined', 'max-pipelined', 'MOCK_MAX_PIPELINED', 10, 20),
  integerCase('headersTimeout', 'headers-timeout', 'MOCK_HEADERS_TIMEOUT', 2_000, 3_000),
  integerCase('requestTimeout', 'request-timeout', 'MOCK_REQUEST_TIMEOUT', 20_000, 40_000),
  integerCase('keepAliveTimeout', 'keep-alive-timeout', 'MOCK_KEEP_ALIVE_TIMEOUT', 1_000, 2_000),
  integerCase('writeTimeout', 'write-timeout', 'MOCK_WRITE_TIMEOUT', 5_000, 6_000),
];

describe('loadConfig: every option from its environment variable and its flag', () => {
  it('covers every setting of the table with its documented flag and variable', () => {
    expect(OPTION_CASES.map((c) => c.name).sort()).toEqual([...SETTING_NAMES].sort());
    for (const c of OPTION_CASES) {
      expect(flagOf(c.name)).toBe(`--${c.flag}`);
      expect(envOf(c.name)).toBe(c.env);
    }
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

  // This used to give count 100 to --seed alone and seed 1 to --count alone. That rule now lives
  // in the server (initialDataSource in src/server/load-mock.ts) and is tested through it; the
  // config keeps exactly what was given, and leaves the other undefined.
  it('keeps --seed alone and --count alone as given, without filling in the other', () => {
    const seedOnly = runConfig(['--seed', '5']);
    expect(seedOnly.seed).toBe(5);
    expect(seedOnly.count).toBeUndefined();
    const countOnly = runConfig(['--count', '3']);
    expect(countOnly.seed).toBeUndefined();
    expect(countOnly.count).toBe(3);
    const fromEnv = runConfig([], { MOCK_SEED: '5' });
    expect(fromEnv.count).toBeUndefined();
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
    what: '--state-url http://127.0.0.1:6379',
    argv: ['--state-url', 'http://127.0.0.1:6379'],
    env: {},
    names: '--state-url',
  },
  {
    what: 'MOCK_STATE_URL=redis://host/abc',
    argv: [],
    env: { MOCK_STATE_URL: 'redis://host/abc' },
    names: 'MOCK_STATE_URL',
  },
  {
    what: '--db with MOCK_STATE_URL',
    argv: ['--db', 'pets.json'],
    env: { MOCK_STATE_URL: 'redis://127.0.0.1:6379' },
    names: '--db',
  },
  {
    what: '--state-timeout 50',
    argv: ['--state-timeout', '50'],
    env: {},
    names: '--state-timeout',
  },
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
    what: '--proxy-strict=maybe',
    argv: ['--proxy-target', TARGET, '--proxy-strict=maybe'],
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

  it.each([
    {
      argv: ['--port', 'x'],
      env: {},
      message: '--port: expected an integer from 0 to 65535, got "x"',
    },
    {
      argv: [],
      env: { MOCK_LOG_LEVEL: 'loud' },
      message:
        'MOCK_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    },
    {
      argv: ['--default-status', 'lost'],
      env: {},
      message: '--default-status: expected one of available, pending, sold, got "lost"',
    },
    { argv: ['--host', ' '], env: {}, message: '--host: expected a value, got " "' },
    { argv: [], env: { HOST: '  ' }, message: 'HOST: expected a value, got "  "' },
    { argv: ['--db='], env: {}, message: '--db: expected a value, got ""' },
  ])('words the message of $argv $env exactly', ({ argv, env, message }) => {
    expect(configError(argv, env).message).toBe(message);
  });

  it('throws a one-line ConfigError naming an unknown flag', () => {
    const error = configError(['--nope']);
    expect(error.message).toContain('--nope');
    expect(error.message).not.toContain('\n');
  });

  it.each([['--db-path'], ['--fixtures-path'], ['--cors-origins'], ['--admin']])(
    'refuses the old or a near name %s as an unknown flag',
    (flag) => {
      expect(configError([flag, 'x']).message).toContain(flag);
    },
  );

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
    for (const { name, flag, env } of OPTION_CASES) {
      expect(text).toContain(`--${flag}`);
      expect(text).toContain(env);
      expect(text).toContain(settingOf(name).shown);
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
    expect(runConfig([], { MOCK_PROXY_STRICT: '0', MOCK_PROXY_INSECURE: 'false' })).toMatchObject({
      proxyTarget: undefined,
      proxyStrict: false,
      proxyInsecure: false,
    });
    expect(runConfig(['--proxy-target', TARGET], { MOCK_PROXY_STRICT: 'false' }).proxyStrict).toBe(
      false,
    );
  });

  it('need --proxy-target when on', () => {
    expect(configError([], { MOCK_PROXY_INSECURE: 'true' }).message).toBe(
      'MOCK_PROXY_INSECURE needs --proxy-target',
    );
    expect(configError(['--proxy-timeout', '300']).message).toBe(
      '--proxy-timeout needs --proxy-target',
    );
  });
});

describe('--no-admin', () => {
  it('keeps the admin API by default', () => {
    expect(runConfig([]).noAdmin).toBe(false);
  });

  it('turns it off with the flag or MOCK_NO_ADMIN=1/true', () => {
    expect(runConfig(['--no-admin']).noAdmin).toBe(true);
    expect(runConfig([], { MOCK_NO_ADMIN: '1' }).noAdmin).toBe(true);
    expect(runConfig([], { MOCK_NO_ADMIN: 'true' }).noAdmin).toBe(true);
    expect(runConfig([], { MOCK_NO_ADMIN: '0' }).noAdmin).toBe(false);
    expect(runConfig([], { MOCK_NO_ADMIN: 'false' }).noAdmin).toBe(false);
  });

  it('refuses another MOCK_NO_ADMIN value, naming it', () => {
    expect(configError([], { MOCK_NO_ADMIN: 'maybe' }).message).toBe(
      'MOCK_NO_ADMIN: expected 1, true, 0 or false, got "maybe"',
    );
  });

  it('takes the values of MOCK_NO_ADMIN after "=" on the command line', () => {
    expect(runConfig(['--no-admin=1']).noAdmin).toBe(true);
    expect(runConfig(['--no-admin=false'], { MOCK_NO_ADMIN: '1' }).noAdmin).toBe(false);
  });
});

// docs/options.md: "A switch is on given alone (`--proxy-strict`); it takes what its variable
// takes, `1`/`true` or `0`/`false`, joined by `=` (`--proxy-strict=false`), never as the next word".
describe('a switch on the command line', () => {
  it.each([
    { argv: ['--watch'], watch: true },
    { argv: ['--watch=1'], watch: true },
    { argv: ['--watch=true'], watch: true },
    { argv: ['--watch=TRUE'], watch: true },
    { argv: ['--watch=0'], watch: false },
    { argv: ['--watch=false'], watch: false },
    { argv: ['--watch', '--port', '0'], watch: true },
    { argv: ['--watch=true', '--watch=0'], watch: false },
  ])('reads $argv as watch $watch, as MOCK_WATCH would', ({ argv, watch }) => {
    expect(runConfig(argv).watch).toBe(watch);
  });

  it.each(['1', 'true', '0', 'false'])('takes every value MOCK_WATCH takes: %s', (value) => {
    expect(runConfig([`--watch=${value}`]).watch).toBe(runConfig([], { MOCK_WATCH: value }).watch);
  });

  it('wins over its variable, as any flag does', () => {
    expect(runConfig(['--watch=0'], { MOCK_WATCH: '1' }).watch).toBe(false);
    expect(runConfig(['--watch'], { MOCK_WATCH: 'false' }).watch).toBe(true);
  });

  it.each([
    { argv: ['--watch=yes'], message: '--watch: expected 1, true, 0 or false, got "yes"' },
    { argv: ['--watch='], message: '--watch: expected 1, true, 0 or false, got ""' },
    {
      argv: ['--watch', '1'],
      message:
        '--watch: a switch is given alone or with "=" (--watch=1, --watch=false), not with the next word "1" (see --help)',
    },
    {
      argv: ['--port', '0', '--no-admin', 'false'],
      message:
        '--no-admin: a switch is given alone or with "=" (--no-admin=1, --no-admin=false), not with the next word "false" (see --help)',
    },
  ])('refuses $argv with one line saying how to write it', ({ argv, message }) => {
    expect(configError(argv).message).toBe(message);
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

  it('words the empty admin token message with the way out', () => {
    expect(configError([], { MOCK_ADMIN_TOKEN: '' }).message).toBe(
      'MOCK_ADMIN_TOKEN: the value is empty; give a token, or leave it unset for an open admin API',
    );
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

  it('words the empty api keys message with the bad value and the way out', () => {
    expect(configError(['--api-keys', ',,,']).message).toBe(
      '--api-keys: no key in ",,,"; give at least one, or leave it unset to accept any token',
    );
  });

  it('trims the admin token, and keeps the non-empty keys of a list with gaps', () => {
    expect(runConfig([], { MOCK_ADMIN_TOKEN: ' secret\n' }).adminToken).toBe('secret');
    expect(runConfig(['--api-keys', ',k1,,k2,'], {}).apiKeys).toEqual(['k1', 'k2']);
  });

  it('leaves admin open and accepts any token when neither is given at all', () => {
    expect(runConfig([], {})).toMatchObject({ adminToken: undefined, apiKeys: [] });
  });
});
