import fc from 'fast-check';

const PREVIEW = 60;

function preview(text: string): string {
  return text.length > PREVIEW
    ? `${JSON.stringify(text.slice(0, PREVIEW))}…(${text.length})`
    : JSON.stringify(text);
}

/**
 * JSON request bodies as the fuzzer writes them: a small syntax tree that keeps number literals
 * as text (so int64 values beyond 2^53 and odd forms like `1e3` go out exactly as generated),
 * allows duplicate and `__proto__` keys, and writes strings plainly or fully `\u`-escaped.
 */

/** Literal JSON text: a number as written, or a (deeply nested) fragment built as text. */
export class JsonRaw {
  constructor(readonly text: string) {}

  [fc.toStringMethod](): string {
    return `raw(${this.text})`;
  }
}

/** `depth` nested arrays or objects around a 0, built as text (compact in counterexamples). */
export class JsonNested {
  constructor(
    readonly open: '[' | '{',
    readonly depth: number,
  ) {}

  get text(): string {
    return this.open === '['
      ? `${'['.repeat(this.depth)}0${']'.repeat(this.depth)}`
      : `${'{"a":'.repeat(this.depth)}0${'}'.repeat(this.depth)}`;
  }

  [fc.toStringMethod](): string {
    return `nested(${this.open} x ${this.depth})`;
  }
}

/** A long string: `unit` repeated `count` times (compact in counterexamples). */
export class JsonRepeat {
  constructor(
    readonly unit: string,
    readonly count: number,
  ) {}

  get value(): string {
    return this.unit.repeat(this.count);
  }

  [fc.toStringMethod](): string {
    return `repeat(${JSON.stringify(this.unit)} x ${this.count})`;
  }
}

/** A string, written with JSON.stringify or with every UTF-16 unit as a `\uXXXX` escape. */
export class JsonString {
  constructor(
    readonly value: string,
    readonly escapeAll = false,
  ) {}

  [fc.toStringMethod](): string {
    return `${this.escapeAll ? 'escaped' : ''}${preview(this.value)}`;
  }
}

/** An object as a list of entries: duplicate keys and `__proto__` stay what they are. */
export class JsonObject {
  constructor(readonly entries: readonly (readonly [JsonString, JsonValue])[]) {}

  [fc.toStringMethod](): string {
    return `{${this.entries.map(([key, value]) => `${fc.stringify(key)}: ${fc.stringify(value)}`).join(', ')}}`;
  }
}

export type JsonValue =
  | null
  | boolean
  | JsonRaw
  | JsonNested
  | JsonString
  | JsonRepeat
  | JsonObject
  | readonly JsonValue[];

function escapeAll(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i += 1) {
    out += `\\u${value.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** The JSON text of a tree; `space` goes between every token (JSON allows any such whitespace). */
export function toJsonText(value: JsonValue, space = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (value instanceof JsonRaw || value instanceof JsonNested) return value.text;
  if (value instanceof JsonRepeat) return JSON.stringify(value.value);
  if (value instanceof JsonString) {
    // JSON.stringify escapes lone surrogates and control characters: the text is always UTF-8 safe.
    return value.escapeAll ? escapeAll(value.value) : JSON.stringify(value.value);
  }
  if (value instanceof JsonObject) {
    const entries = value.entries.map(
      ([key, item]) => `${toJsonText(key)}${space}:${space}${toJsonText(item, space)}`,
    );
    return `{${space}${entries.join(`${space},${space}`)}${space}}`;
  }
  return `[${space}${value.map((item) => toJsonText(item, space)).join(`${space},${space}`)}${space}]`;
}

/** Whether a standard parser accepts the text: an independent opinion on syntax. */
export function isJsonSyntax(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const MAX_EXPONENT = 400;

/**
 * The exact integer a JSON number literal denotes (`1e3` is 1000, `10.0` is 10), or undefined when
 * it denotes a non-integer or is not a number literal. Computed in decimal, never through a double.
 */
export function exactInteger(text: string): bigint | undefined {
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  if (Math.abs(exponent) > MAX_EXPONENT) {
    return /^0*$/.test(whole + fraction) ? 0n : undefined;
  }
  let digits = BigInt(whole + fraction);
  if (exponent >= 0) digits *= 10n ** BigInt(exponent);
  else {
    const divisor = 10n ** BigInt(-exponent);
    if (digits % divisor !== 0n) return undefined;
    digits /= divisor;
  }
  return sign === '-' ? -digits : digits;
}
