import { parseArgs } from 'node:util';
import { errorMessage } from '../util/error-message.js';
import { ConfigError } from './config-error.js';
import {
  SETTING_NAMES,
  envOf,
  flagOf,
  settingOf,
  type Config,
  type SettingName,
} from './settings.js';

/** What the command line asks for: run the mock, or print help or the version. */
export type Command = { kind: 'run'; config: Config } | { kind: 'help' } | { kind: 'version' };

/** The settings given, each with where it was given (`--port`, `PORT`, `port`) for messages. */
type Given = Map<SettingName, { readonly value: unknown; readonly label: string }>;

const SHORT_FLAGS = new Set(['-h', '-v']);
const TAKES_VALUE = new Set(
  SETTING_NAMES.filter((name) => !settingOf(name).switch).map((name) => flagOf(name)),
);
const SWITCHES = new Set(
  SETTING_NAMES.filter((name) => settingOf(name).switch).map((name) => flagOf(name)),
);

/**
 * A switch takes the values of its variable, joined by `=` (`--watch=false`); alone it is on
 * (`--watch=1`). A word after it is refused, not taken as its value: as with getopt's optional
 * values, `--watch 1` would read a positional as the switch's value.
 */
function attachSwitchValues(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (!SWITCHES.has(arg)) return arg;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('-')) {
      throw new ConfigError(
        `${arg}: a switch is given alone or with "=" (${arg}=1, ${arg}=false), not with the next word "${next}"`,
      );
    }
    return `${arg}=1`;
  });
}

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
    if (
      TAKES_VALUE.has(arg) &&
      next !== undefined &&
      /^-[^-]/.test(next) &&
      !SHORT_FLAGS.has(next)
    ) {
      args.push(`${arg}=${next}`);
      i += 1;
    } else {
      args.push(arg);
    }
  }
  return args;
}

/** The flags of a command line, by setting name, with --help and --version. */
function readFlags(argv: readonly string[]): {
  flags: ReadonlyMap<SettingName, string>;
  help: boolean;
  version: boolean;
} {
  const options = Object.fromEntries(
    SETTING_NAMES.map((name) => [flagOf(name).slice(2), { type: 'string' as const }]),
  );
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: attachSwitchValues(attachDashValues(argv)),
      options: {
        ...options,
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigError(`${errorMessage(error).split('\n')[0] ?? ''} (see --help)`);
  }
  const flags = new Map<SettingName, string>();
  for (const name of SETTING_NAMES) {
    const value = values[flagOf(name).slice(2)];
    if (typeof value === 'string') flags.set(name, value);
  }
  return { flags, help: values.help === true, version: values.version === true };
}

/**
 * Each setting's text, from its flag, else its environment variable; an empty variable counts
 * as unset, except for a setting that guards access, which must never fail open.
 */
function fromText(flags: ReadonlyMap<SettingName, string>, env: NodeJS.ProcessEnv): Given {
  const given: Given = new Map();
  for (const name of SETTING_NAMES) {
    const setting = settingOf(name);
    const flag = flags.get(name);
    const variable = env[envOf(name)];
    if (flag !== undefined) {
      given.set(name, { value: setting.parse(flag, flagOf(name)), label: flagOf(name) });
    } else if (variable !== undefined && (variable !== '' || setting.guard)) {
      given.set(name, { value: setting.parse(variable, envOf(name)), label: envOf(name) });
    }
  }
  return given;
}

/** True when every field holds what its setting accepts: the table's own checks, once more. */
function isConfig(values: Readonly<Partial<Record<SettingName, unknown>>>): values is Config {
  for (const name of SETTING_NAMES) {
    const setting = settingOf(name);
    // Throws for what it refuses: a value that is not the default passed its check once already.
    if (values[name] !== setting.default) setting.check(values[name], name);
  }
  return true;
}

/** The checks that read several settings together; each names what was given. */
function checkTogether(config: Config, given: Given): void {
  const label = (name: SettingName): string => given.get(name)?.label ?? flagOf(name);
  const db = given.get('db');
  const redis = given.get('stateUrl');
  if (db && redis) throw new ConfigError(`${db.label} cannot be combined with ${redis.label}`);
  const fixtures = given.get('fixtures');
  const generated = given.get('seed') ?? given.get('count');
  if (fixtures && generated) {
    throw new ConfigError(`${fixtures.label} cannot be combined with ${generated.label}`);
  }
  if (config.maxQueuedBytes > config.maxQueuedTotal) {
    throw new ConfigError(
      `${label(given.has('maxQueuedBytes') ? 'maxQueuedBytes' : 'maxQueuedTotal')}: one connection's budget (${config.maxQueuedBytes} bytes) exceeds that of all of them (${config.maxQueuedTotal})`,
    );
  }
  if (config.headersTimeout > config.requestTimeout) {
    throw new ConfigError(
      `${label(given.has('headersTimeout') ? 'headersTimeout' : 'requestTimeout')}: the headers timeout (${config.headersTimeout} ms) exceeds the request timeout (${config.requestTimeout} ms), of which it is a part`,
    );
  }
  if (config.proxyTarget === undefined) {
    const orphan = (['proxyTimeout', 'record', 'proxyStrict', 'proxyInsecure'] as const).find(
      (name) => given.has(name) && config[name] !== false,
    );
    const from = given.get(orphan ?? 'proxyTimeout')?.label;
    // Said in the words it was given in: a library option, or a flag or variable.
    const target = from === orphan ? 'proxyTarget' : flagOf('proxyTarget');
    if (orphan) throw new ConfigError(`${label(orphan)} needs ${target}`);
  }
}

/** The Config of the settings given, every other one at its default. */
function configOf(given: Given): Config {
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const name of SETTING_NAMES)
    values[name] = given.get(name)?.value ?? settingOf(name).default;
  if (!isConfig(values)) throw new ConfigError('a setting holds a value of the wrong type');
  const config = Object.freeze(values);
  checkTogether(config, given);
  return config;
}

/** Builds the read-only Config from the command line and the environment (flags win). */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const { flags, help, version } = readFlags(argv);
  if (help) return { kind: 'help' };
  if (version) return { kind: 'version' };
  return { kind: 'run', config: configOf(fromText(flags, env)) };
}

function isSettingName(name: string): name is SettingName {
  return SETTING_NAMES.some((known) => known === name);
}

/**
 * Builds the read-only Config from a library's typed options, with the same checks as the command
 * line and no text in between; an option left undefined takes its default.
 */
export function configFromOptions(options: Readonly<Record<string, unknown>>): Config {
  const given: Given = new Map();
  for (const [name, value] of Object.entries(options)) {
    if (!isSettingName(name)) {
      throw new ConfigError(`${name}: no such option (see docs/options.md)`);
    }
    if (value !== undefined)
      given.set(name, { value: settingOf(name).check(value, name), label: name });
  }
  return configOf(given);
}

export { ConfigError };
