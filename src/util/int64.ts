/**
 * An int64 value: a number while JavaScript holds it exactly (a safe integer), a bigint beyond.
 * Each value has one form only, so `===` and Set/Map keys work; `<` and `>` compare across forms.
 */
export type Int64 = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The canonical form of an integer: a number when safe, a bigint otherwise. */
export function toInt64(value: bigint): Int64 {
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value;
}

/** Whether a value is an int64 in canonical form. */
export function isInt64(value: unknown): value is Int64 {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return (
    typeof value === 'bigint' &&
    value >= INT64_MIN &&
    value <= INT64_MAX &&
    !Number.isSafeInteger(Number(value))
  );
}

/** Reads a decimal integer literal (e.g. a path parameter) if it is an int64. */
export function parseInt64(text: string): Int64 | undefined {
  if (!/^[+-]?\d{1,20}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX ? toInt64(value) : undefined;
}

/** The next integer. */
export function nextInt64(value: Int64): Int64 {
  return typeof value === 'number' && Number.isSafeInteger(value + 1)
    ? value + 1
    : toInt64(BigInt(value) + 1n);
}

/** Ascending order, for sort(). */
export function compareInt64(a: Int64, b: Int64): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Where a JSON-like value holds a bigint outside int64 (JSON Schema checks see such values rounded,
 * so 2^63 would pass as an int64): `{ path: '/response/0/id', message }` for each.
 */
export function int64Breaches(
  value: unknown,
  path: string,
): { readonly path: string; readonly message: string }[] {
  if (typeof value === 'bigint') {
    return value < INT64_MIN || value > INT64_MAX
      ? [{ path, message: `must be an int64 (-2^63 to 2^63-1), not ${value.toString()}` }]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => int64Breaches(item, `${path}/${i}`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, child]) => int64Breaches(child, `${path}/${key}`));
  }
  return [];
}
