import { isInteger, parse, stringify } from 'lossless-json';
import { toInt64 } from './int64.js';

// Integers of 16 digits or more may be beyond 2^53; shorter JSON takes the native fast path.
const LONG_DIGITS = /\d{16}/;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this many integer digits a literal is left to Number (and fails int64 checks). */
const MAX_INTEGER_DIGITS = 40;

/**
 * A number literal as JSON Schema sees it, exactly: an integer value (`1.0`, `1e18`) becomes an
 * Int64, whatever its notation; a fraction stays a number, but one that Number() would round to
 * an integer (`1.0000000000000001`) becomes NaN, so that no integer check can accept it.
 */
function parseNumber(text: string): number | bigint {
  if (isInteger(text)) return toInt64(BigInt(text));
  const parts = DECIMAL.exec(text);
  const value = Number(text);
  if (!parts) return value;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const isWhole = /^0*$/.test(digits.slice(Math.max(point, 0)));
  if (isWhole && point <= MAX_INTEGER_DIGITS) {
    const integerDigits = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
    return toInt64(BigInt(sign + integerDigits));
  }
  return !isWhole && Number.isInteger(value) ? Number.NaN : value;
}

/**
 * JSON.parse that keeps integers exact: those beyond 2^53 become bigints (see Int64).
 * `strict` (for request bodies) always uses the lossless parser, so duplicate keys are refused
 * whatever the digits.
 */
export function parseJson(text: string, strict = false): unknown {
  if (!strict && !LONG_DIGITS.test(text)) return JSON.parse(text);
  return parse(text, null, parseNumber);
}

/** Whether a JSON-like value holds a bigint anywhere (on every response: no allocation). */
export function containsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (containsBigInt(item)) return true;
    return false;
  }
  for (const key in value) {
    const child: unknown = Reflect.get(value, key);
    if (Object.hasOwn(value, key) && containsBigInt(child)) return true;
  }
  return false;
}

/** JSON.stringify that writes bigints as exact integers. */
export function stringifyJson(value: unknown): string {
  try {
    // The native path, unless it meets a bigint (it throws a TypeError then): no scan first.
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !containsBigInt(value)) throw error;
    return stringify(value) ?? 'null';
  }
}

/** A copy of a value with its bigints as (rounded) numbers. */
function withNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(withNumbers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNumbers(v)]));
  }
  return value;
}

/**
 * The same value with bigints as (rounded) numbers: what a JSON Schema validator can check; the
 * value itself, not a copy, when it holds no bigint (the common case, on every request).
 * Exactness of int64 values is checked separately (isInt64), never on this view.
 */
export function validationView(value: unknown): unknown {
  return containsBigInt(value) ? withNumbers(value) : value;
}

/** How deeply a JSON text nests arrays and objects, strings skipped; stops counting past `max`. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
