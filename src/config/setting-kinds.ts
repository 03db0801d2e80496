import { ConfigError } from './config-error.js';

/**
 * One setting: how it is documented, its default, and how its value is read, from the text of a
 * flag or variable (`parse`) or from a library option (`check`, which also guards JavaScript
 * callers against a value of the wrong type). Both throw ConfigError naming `label`.
 */
export interface Setting<T> {
  /** The environment variable, when it is not `MOCK_` and the name in snake case. */
  readonly env?: string;
  /** The flag's value as --help shows it, e.g. `<n>`; empty for a switch. */
  readonly value: string;
  readonly default: T;
  /** The default as --help and the docs show it. */
  readonly shown: string;
  /** What it accepts, in words: `0 to 65535`; empty where any value of its kind does. */
  readonly range: string;
  readonly help: string;
  /** On when given alone (`--proxy-strict`); else 1, true, 0 or false, as flag or variable. */
  readonly switch: boolean;
  /** Guards access, so never fails open: an empty variable counts as given, and is refused. */
  readonly guard: boolean;
  parse(text: string, label: string): T;
  check(value: unknown, label: string): T;
}

/** How a kind of setting reads and checks its values, and says what it accepts. */
type Reader<T> = Pick<Setting<T>, 'parse' | 'check' | 'value' | 'range'>;

interface Doc {
  readonly env?: string;
  readonly value?: string;
  readonly shown?: string;
  readonly help: string;
}

function setting<T>(
  doc: Doc,
  fallback: T,
  read: Reader<T>,
  flags: { switch?: boolean; guard?: boolean } = {},
): Setting<T> {
  return {
    ...(doc.env === undefined ? {} : { env: doc.env }),
    value: doc.value ?? read.value,
    default: fallback,
    shown: doc.shown ?? String(fallback),
    range: read.range,
    help: doc.help,
    switch: flags.switch ?? false,
    guard: flags.guard ?? false,
    parse: read.parse,
    check: read.check,
  };
}

function got(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

interface Range {
  readonly min: number;
  readonly max: number;
}

function inRange(n: number, { min, max }: Range): boolean {
  return Number.isSafeInteger(n) && n >= min && n <= max;
}

function integerReader(range: Range): Reader<number> {
  const refuse = (label: string, value: unknown): ConfigError =>
    new ConfigError(
      `${label}: expected an integer from ${range.min} to ${range.max}, got ${got(value)}`,
    );
  return {
    value: '<n>',
    range: `${range.min} to ${range.max}`,
    parse: (text, label) => {
      const n = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
      if (!inRange(n, range)) throw refuse(label, text);
      return n;
    },
    check: (value, label) => {
      if (typeof value !== 'number' || !inRange(value, range)) throw refuse(label, value);
      return value;
    },
  };
}

/** A whole number from `min` to `max`. */
export function integer(doc: Doc & Range & { default: number }): Setting<number> {
  return setting(doc, doc.default, integerReader(doc));
}

/** A whole number from `min` to `max`, or nothing. */
export function optionalInteger(doc: Doc & Range): Setting<number | undefined> {
  return setting<number | undefined>(doc, undefined, integerReader(doc));
}

/** Largest byte budget accepted: 64 GiB, more than any machine here would hold. */
const MAX_BUDGET_BYTES = 2 ** 36;

/** A byte budget: at least `min`. */
export function bytes(doc: Doc & { min: number; default: number }): Setting<number> {
  return integer({ value: '<bytes>', ...doc, max: MAX_BUDGET_BYTES });
}

function textReader(
  extra: (value: string, label: string) => void = () => undefined,
): Reader<string> {
  const read = (value: unknown, label: string): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConfigError(`${label}: expected a value, got ${got(value)}`);
    }
    extra(value.trim(), label);
    return value.trim();
  };
  return { value: '<text>', range: '', parse: read, check: read };
}

/** A text that is not empty (spaces around it dropped). */
export function text(doc: Doc & { default: string }): Setting<string> {
  return setting(doc, doc.default, textReader());
}

/** A text that is not empty, or nothing; `check` refuses what the setting cannot use. */
export function optionalText(
  doc: Doc & { check?: (value: string, label: string) => void },
): Setting<string | undefined> {
  return setting<string | undefined>(doc, undefined, textReader(doc.check));
}

/** One of `values`, written exactly. */
export function oneOf<T extends string | undefined>(
  values: readonly Exclude<T, undefined>[],
  doc: Doc & { default: T },
): Setting<T> {
  const read = (value: unknown, label: string): T => {
    const found = values.find((v) => v === value);
    if (found === undefined) {
      throw new ConfigError(`${label}: expected one of ${values.join(', ')}, got ${got(value)}`);
    }
    return found;
  };
  return setting(doc, doc.default, {
    value: '<value>',
    range: values.join(', '),
    parse: read,
    check: read,
  });
}

/** On or off: given alone on the command line, or as 1, true, 0 or false (`--watch=false`). */
export function switchSetting(doc: Doc): Setting<boolean> {
  return setting(
    { shown: '(off)', ...doc },
    false,
    {
      value: '',
      range: '1, true, 0, false',
      parse: (text, label) => {
        const value = text.trim().toLowerCase();
        // An empty variable never gets here (it counts as unset); an empty `--watch=` is refused.
        if (value === '0' || value === 'false') return false;
        if (value === '1' || value === 'true') return true;
        throw new ConfigError(`${label}: expected 1, true, 0 or false, got "${text}"`);
      },
      check: (value, label) => {
        if (typeof value !== 'boolean') {
          throw new ConfigError(`${label}: expected true or false, got ${got(value)}`);
        }
        return value;
      },
    },
    { switch: true },
  );
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list's items from a library option: strings, none of them empty. */
function listItems(value: unknown, label: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new ConfigError(`${label}: expected a list of texts, got ${got(value)}`);
  }
  const items: string[] = value.map((item: string) => item.trim());
  if (items.includes('')) throw new ConfigError(`${label}: an empty item in the list`);
  return items;
}

/**
 * A list that guards access (--api-keys): comma-separated in a flag or variable; empty, it would
 * accept any token, so it is refused with `empty` as the way out.
 */
export function guardedList(doc: Doc & { empty: string }): Setting<readonly string[]> {
  const none = (label: string, value: unknown): ConfigError =>
    new ConfigError(`${label}: no key in ${got(value)}; ${doc.empty}`);
  return setting<readonly string[]>(
    doc,
    Object.freeze([]),
    {
      value: '<a,b>',
      range: 'one or more, comma-separated',
      parse: (text, label) => {
        const items = splitList(text);
        if (items.length === 0) throw none(label, text);
        return Object.freeze(items);
      },
      check: (value, label) => {
        const items = listItems(value, label);
        if (items.length === 0) throw none(label, '');
        return Object.freeze(items);
      },
    },
    { guard: true },
  );
}

/** A secret that guards access (--admin-token); empty, it is refused with `empty` as the way out. */
export function guardedText(doc: Doc & { empty: string }): Setting<string | undefined> {
  const read = (value: unknown, label: string): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConfigError(`${label}: the value is empty; ${doc.empty}`);
    }
    return value.trim();
  };
  return setting<string | undefined>(
    doc,
    undefined,
    { value: '<text>', range: 'not empty', parse: read, check: read },
    { guard: true },
  );
}

function checkOrigins(items: readonly string[], label: string): readonly string[] {
  for (const item of items) {
    if (item === '*') continue;
    let valid = false;
    try {
      valid = new URL(item).origin === item;
    } catch {
      valid = false;
    }
    if (!valid) {
      throw new ConfigError(`${label}: "${item}" is not an origin like http://localhost:3000`);
    }
  }
  return items;
}

/** Origins for CORS: a comma-separated list of origins, or `*`. */
export function origins(doc: Doc): Setting<readonly string[]> {
  return setting<readonly string[]>(doc, Object.freeze([]), {
    value: '<o1,o2|*>',
    range: 'origins like http://localhost:3000, comma-separated, or *',
    parse: (text, label) => Object.freeze(checkOrigins(splitList(text), label)),
    check: (value, label) => Object.freeze(checkOrigins(listItems(value, label), label)),
  });
}

/** Where Redis is: `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
export function stateUrl(doc: Doc): Setting<string | undefined> {
  const read = (value: unknown, label: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(typeof value === 'string' ? value.trim() : '');
    } catch {
      throw new ConfigError(`${label}: not a URL like redis://127.0.0.1:6379`);
    }
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
      throw new ConfigError(`${label}: only redis: and rediss: URLs, not ${parsed.protocol}`);
    }
    if (parsed.hostname === '') throw new ConfigError(`${label}: no host in the URL`);
    if (!/^\/?(\d{1,2})?$/.test(parsed.pathname)) {
      throw new ConfigError(
        `${label}: the path is a database number (/0 to /99), not ${parsed.pathname}`,
      );
    }
    return parsed.href;
  };
  return setting<string | undefined>(doc, undefined, {
    value: '<url>',
    range: 'redis://[user:password@]host:port[/db], or rediss://',
    parse: read,
    check: read,
  });
}

/** A service's base address: an absolute http: or https: URL, without credentials or query. */
export function url(doc: Doc): Setting<string | undefined> {
  const read = (value: unknown, label: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(typeof value === 'string' ? value.trim() : '');
    } catch {
      throw new ConfigError(
        `${label}: ${got(value)} is not a URL like https://staging.example.com/v1`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`${label}: only http: and https: targets, not ${parsed.protocol}`);
    }
    if (parsed.username !== '' || parsed.password !== '') {
      throw new ConfigError(`${label}: no credentials in the URL; clients send their own`);
    }
    if (parsed.search !== '' || parsed.hash !== '') {
      throw new ConfigError(`${label}: a base address has no query or fragment`);
    }
    return parsed.href.replace(/\/+$/, '');
  };
  return setting<string | undefined>(doc, undefined, {
    value: '<url>',
    range: 'an http: or https: base address',
    parse: read,
    check: read,
  });
}
