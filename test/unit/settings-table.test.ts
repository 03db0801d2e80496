import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { helpText, optionsMarkdown } from '../../src/config/help.js';
import { ConfigError, configFromOptions, loadConfig } from '../../src/config/load-config.js';
import {
  SETTINGS,
  SETTING_NAMES,
  envOf,
  flagOf,
  settingOf,
  type Config,
  type SettingName,
} from '../../src/config/settings.js';
import { packageRoot } from '../../src/util/paths.js';
import type { MockServerOptions } from '../../src/server/start-mock-server.js';

/** The config of a command line that must run; fails the test on help/version. */
function runConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Config {
  const command = loadConfig(argv, env);
  if (command.kind !== 'run') throw new Error(`expected a run command, got ${command.kind}`);
  return command.config;
}

/** The ConfigError thrown by `build`; fails the test if it does not throw one. */
function configError(build: () => unknown): ConfigError {
  try {
    build();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got ${String(error)}`);
  }
  throw new Error('expected a ConfigError, but the config was built');
}

const TARGET = 'http://127.0.0.1:8080/v1';
const MIB = 1024 * 1024;

describe('configFromOptions: the same Config as the flags', () => {
  it.each([
    { what: 'port', options: { port: 5000 }, argv: ['--port', '5000'] },
    { what: 'port 0', options: { port: 0 }, argv: ['--port', '0'] },
    { what: 'apiKeys', options: { apiKeys: ['k1', 'k2'] }, argv: ['--api-keys', 'k1,k2'] },
    {
      what: 'corsOrigin',
      options: { corsOrigin: ['http://localhost:3000', 'https://app.example.com'] },
      argv: ['--cors-origin', 'http://localhost:3000,https://app.example.com'],
    },
    { what: 'corsOrigin *', options: { corsOrigin: ['*'] }, argv: ['--cors-origin', '*'] },
    { what: 'maxPets', options: { maxPets: 10 }, argv: ['--max-pets', '10'] },
    {
      what: 'proxyTarget and proxyStrict',
      options: { proxyTarget: TARGET, proxyStrict: true },
      argv: ['--proxy-target', TARGET, '--proxy-strict'],
    },
    {
      what: 'proxyTarget with a trailing slash',
      options: { proxyTarget: `${TARGET}/` },
      argv: ['--proxy-target', `${TARGET}/`],
    },
    { what: 'noAdmin', options: { noAdmin: true }, argv: ['--no-admin'] },
    { what: 'noAdmin false', options: { noAdmin: false }, argv: [] },
    { what: 'seed alone', options: { seed: 5 }, argv: ['--seed', '5'] },
    { what: 'count alone', options: { count: 3 }, argv: ['--count', '3'] },
    {
      what: 'seed and count 0',
      options: { seed: 0, count: 0 },
      argv: ['--seed', '0', '--count', '0'],
    },
    {
      what: 'several together',
      options: { port: 0, host: '0.0.0.0', logLevel: 'silent', adminToken: 'secret', maxPets: 0 },
      argv: [
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--log-level',
        'silent',
        '--admin-token',
        'secret',
        '--max-pets',
        '0',
      ],
    },
  ])('$what', ({ options, argv }) => {
    expect(configFromOptions(options)).toEqual(runConfig(argv));
  });

  it('gives the defaults for no options, like an empty command line', () => {
    expect(configFromOptions({})).toEqual(runConfig([]));
  });

  it('gives the default to an option left undefined', () => {
    expect(
      configFromOptions({ port: undefined, apiKeys: undefined, proxyStrict: undefined }),
    ).toEqual(runConfig([]));
  });

  it('returns a frozen config', () => {
    expect(Object.isFrozen(configFromOptions({ port: 0 }))).toBe(true);
  });

  it('keeps apiKeys: ["a,b"] as one key, with no text to split in between', () => {
    expect(configFromOptions({ apiKeys: ['a,b'] }).apiKeys).toEqual(['a,b']);
    expect(runConfig(['--api-keys', 'a,b']).apiKeys).toEqual(['a', 'b']);
  });

  it('does not change the options it is given', () => {
    const options = { apiKeys: [' k1 '], port: 0 };
    configFromOptions(options);
    expect(options).toEqual({ apiKeys: [' k1 '], port: 0 });
  });
});

describe('configFromOptions: refusals', () => {
  it.each([['prot'], ['dbPath'], ['fixturesPath'], ['corsOrigins'], ['admin'], ['proxy']])(
    'refuses the unknown option %s, naming it',
    (name) => {
      const error = configError(() => configFromOptions({ [name]: 1 }));
      expect(error.message).toContain(name);
      expect(error.message).not.toContain('\n');
    },
  );

  it.each([
    {
      options: { port: '5' },
      message: 'port: expected an integer from 0 to 65535, got "5"',
    },
    { options: { port: 5.5 }, message: 'port: expected an integer from 0 to 65535, got 5.5' },
    { options: { apiKeys: 'a' }, message: 'apiKeys: expected a list of texts, got "a"' },
    { options: { noAdmin: 'true' }, message: 'noAdmin: expected true or false, got "true"' },
    {
      options: { logLevel: 'loud' },
      message:
        'logLevel: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    },
    { options: { host: ' ' }, message: 'host: expected a value, got " "' },
  ])('refuses a wrong value, naming the option: $options', ({ options, message }) => {
    expect(configError(() => configFromOptions(options)).message).toBe(message);
  });

  it.each([
    { options: { corsOrigin: 'http://localhost:3000' } },
    { options: { seed: -1 } },
    { options: { maxPets: null } },
    { options: { proxyTarget: 42 } },
    { options: { coverageReport: 'report.txt' } },
  ])('refuses $options, naming the option', ({ options }) => {
    const error = configError(() => configFromOptions(options));
    expect(error.message).toContain(Object.keys(options)[0]);
    expect(error.message).not.toContain('\n');
  });

  it('never fails open: an empty apiKeys or adminToken is refused, not read as unset', () => {
    expect(configError(() => configFromOptions({ apiKeys: [] })).message).toMatch(
      /^apiKeys: no key/,
    );
    expect(configError(() => configFromOptions({ apiKeys: [''] })).message).toContain('apiKeys');
    expect(configError(() => configFromOptions({ adminToken: '' })).message).toBe(
      'adminToken: the value is empty; give a token, or leave it unset for an open admin API',
    );
    expect(configError(() => configFromOptions({ adminToken: '  ' })).message).toContain('empty');
  });

  it.each([
    {
      what: 'fixtures with seed',
      options: { fixtures: 'a.json', seed: 1 },
      names: ['fixtures', 'seed'],
    },
    {
      what: 'fixtures with count',
      options: { fixtures: 'a.json', count: 5 },
      names: ['fixtures', 'count'],
    },
    {
      what: 'proxyStrict without proxyTarget',
      options: { proxyStrict: true },
      names: ['proxyStrict'],
    },
    { what: 'record without proxyTarget', options: { record: 'seen.json' }, names: ['record'] },
    {
      what: 'proxyTimeout without proxyTarget',
      options: { proxyTimeout: 300 },
      names: ['proxyTimeout'],
    },
    {
      what: 'maxQueuedBytes over maxQueuedTotal',
      options: { maxQueuedBytes: 2 * MIB, maxQueuedTotal: MIB },
      names: ['maxQueuedBytes'],
    },
    {
      what: 'maxQueuedBytes over the default maxQueuedTotal',
      options: { maxQueuedBytes: 128 * MIB },
      names: ['maxQueuedBytes'],
    },
    {
      what: 'headersTimeout over requestTimeout',
      options: { headersTimeout: 20_000, requestTimeout: 10_000 },
      names: ['headersTimeout'],
    },
  ])('applies the checks across settings: $what', ({ options, names }) => {
    const error = configError(() => configFromOptions(options));
    for (const name of names) expect(error.message).toContain(name);
    expect(error.message).not.toContain('\n');
  });

  it('lets switches that are off go without proxyTarget', () => {
    expect(configFromOptions({ proxyStrict: false, proxyInsecure: false })).toEqual(runConfig([]));
  });
});

/** `max-store-bytes` → `maxStoreBytes`: the inverse of flagOf, written apart from it. */
function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The settings whose variable is not MOCK_ and their name in snake case. */
const OWN_VARIABLES: Partial<Record<SettingName, string>> = { port: 'PORT', host: 'HOST' };

describe('the settings table', () => {
  it('lists every setting once, in SETTING_NAMES', () => {
    expect([...SETTING_NAMES].sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(new Set(SETTING_NAMES).size).toBe(SETTING_NAMES.length);
  });

  it('gives every setting a distinct flag and a distinct variable', () => {
    const flags = SETTING_NAMES.map(flagOf);
    const variables = SETTING_NAMES.map(envOf);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(variables).size).toBe(variables.length);
    for (const reserved of ['--help', '--version']) expect(flags).not.toContain(reserved);
  });

  it.each(SETTING_NAMES)('%s: its flag is the kebab-case of its name', (name) => {
    const flag = flagOf(name);
    expect(flag).toMatch(/^--[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(camelCase(flag.slice(2))).toBe(name);
  });

  it.each(SETTING_NAMES)('%s: its variable is MOCK_ and its snake case, or its own', (name) => {
    const variable = envOf(name);
    expect(variable).toMatch(/^[A-Z][A-Z0-9_]*$/);
    const snake = flagOf(name).slice(2).toUpperCase().replaceAll('-', '_');
    expect(variable).toBe(OWN_VARIABLES[name] ?? `MOCK_${snake}`);
  });

  it.each(SETTING_NAMES)('%s: is documented on one line', (name) => {
    const setting = settingOf(name);
    expect(setting.help.trim()).not.toBe('');
    expect(setting.shown.trim()).not.toBe('');
    for (const text of [setting.help, setting.shown, setting.value]) {
      expect(text).not.toContain('\n');
    }
    // A switch is given alone; every other flag shows its value.
    if (setting.switch) expect(setting.value).toBe('');
    else expect(setting.value).toMatch(/^<.+>$/);
  });

  it.each(SETTING_NAMES)('%s: its default passes its own check, or is unset', (name) => {
    const setting = settingOf(name);
    if (setting.guard) {
      // A guard's default means "unset" (open); given on purpose, the same value is refused, so a
      // guard never fails open. (apiKeys' default [] is refused by its check, by design.)
      expect(() => setting.check(setting.default, name)).toThrow(ConfigError);
    } else if (setting.default !== undefined) {
      expect(setting.check(setting.default, name)).toEqual(setting.default);
    }
  });

  it.each(SETTING_NAMES.filter((name) => typeof settingOf(name).default === 'number'))(
    '%s: its shown default reads back as its default',
    (name) => {
      const setting = settingOf(name);
      expect(setting.parse(setting.shown, flagOf(name))).toBe(setting.default);
    },
  );
});

/** True only when A and B are the same type (checked by the compiler, not at run time). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe("the library's options", () => {
  it('are the settings of the table, each with its type, and a logger', () => {
    // These fail to compile when MockServerOptions and the table drift apart.
    const sameNames: Same<keyof MockServerOptions, SettingName | 'logger'> = true;
    const sameTypes: Same<Required<MockServerOptions>['maxPets'], number> = true;
    const sameLists: Same<Required<MockServerOptions>['apiKeys'], readonly string[]> = true;
    expect([sameNames, sameTypes, sameLists]).toEqual([true, true, true]);
  });
});

describe('docs/options.md', () => {
  it('equals optionsMarkdown() byte for byte (npm run docs:options writes it)', () => {
    const path = join(packageRoot, 'docs', 'options.md');
    if (!existsSync(path)) throw new Error(`${path} is missing: run npm run docs:options`);
    expect(readFileSync(path, 'utf8')).toBe(optionsMarkdown());
  });
});

describe("docs/replicas.md's table of settings", () => {
  /** The rows of the table under `## Settings`, each as its cells, backticks dropped. */
  function settingsRows(): string[][] {
    const lines = readFileSync(join(packageRoot, 'docs', 'replicas.md'), 'utf8').split('\n');
    const start = lines.indexOf('## Settings');
    if (start === -1) throw new Error('docs/replicas.md has no "## Settings"');
    const rest = lines.slice(start + 1);
    const first = rest.findIndex((line) => line.startsWith('|'));
    const end = rest.findIndex((line, i) => i > first && !line.startsWith('|'));
    return rest
      .slice(first + 2, end) // after the header and its --- row
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim().replaceAll('`', '')),
      );
  }

  const rows = settingsRows();
  /** The settings of Redis: --state-url, and each whose help says it works with it. */
  const redisSettings = SETTING_NAMES.filter(
    (name) => name === 'stateUrl' || settingOf(name).help.startsWith('with --state-url'),
  );

  it('lists every setting of Redis, once each, in the order of the settings table', () => {
    expect(rows.map(([flag]) => flag?.split(' ')[0])).toEqual(redisSettings.map(flagOf));
  });

  it.each(redisSettings)(
    '%s: its flag, value and default are those of the settings table',
    (name) => {
      const setting = settingOf(name);
      const row = rows.find(([flag]) => flag?.split(' ')[0] === flagOf(name));
      if (!row) throw new Error(`${flagOf(name)} is not in the table`);
      const [flag, shown, what] = row;
      expect(flag).toBe(`${flagOf(name)} ${setting.value}`);
      // The default as --help shows it, maybe glossed in brackets: `3600000 (1 h)`.
      expect(shown?.replace(/ \([^)]*\)$/, '')).toBe(setting.shown);
      for (const variable of what?.match(/MOCK_[A-Z_]+/g) ?? []) expect(variable).toBe(envOf(name));
    },
  );
});

describe('helpText()', () => {
  const lines = helpText().split('\n');

  /** The lines of a setting in --help: its flag's row, up to the next flag's. */
  function block(name: SettingName): string {
    const flag = flagOf(name);
    const start = lines.findIndex((line) => line === `  ${flag}` || line.startsWith(`  ${flag} `));
    if (start === -1) throw new Error(`${flag} is not in --help`);
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((line) => line.startsWith('  --'));
    return [lines[start], ...(end === -1 ? rest : rest.slice(0, end))].join('\n');
  }

  it.each(SETTING_NAMES)('%s: lists its flag, variable and shown default', (name) => {
    const setting = settingOf(name);
    const text = block(name);
    expect(text).toContain(`${flagOf(name)} ${setting.value}`.trimEnd());
    expect(text).toContain(setting.help);
    expect(text).toContain(envOf(name));
    expect(text).toContain(`default ${setting.shown}`);
  });

  it('lists --help and --version', () => {
    expect(lines.some((line) => line.startsWith('  --help'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  --version'))).toBe(true);
  });
});
