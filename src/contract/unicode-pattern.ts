/** Escapes that stay valid in a unicode-mode regular expression (`\d`, `\u{…}`, `\.`…). */
const UNICODE_ESCAPES = /[\^$\\.*+?()[\]{}|/dDwWsSbBfnrtv0cxuUpPk1-9-]/;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * A schema's `pattern` as JSON Schema validators compile it (ECMA-262 with the `u` flag, as Ajv
 * does): a pattern that escapes a character needing no escape (`\:`, `\-` outside a class, `\ `)
 * compiles without the `u` flag but not with it, and means the same without the escape. Such
 * escapes are dropped; a pattern that still does not compile is undefined (it checks nothing).
 */
export function unicodePattern(pattern: string): string | undefined {
  if (compiles(pattern)) return pattern;
  let fixed = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern.charAt(i);
    if (char === '\\') {
      const next = pattern.charAt(i + 1);
      i += 1;
      // In a class, `\-` is a literal dash; outside, a dash needs no escape.
      if (UNICODE_ESCAPES.test(next) && !(next === '-' && !inClass)) fixed += `\\${next}`;
      else fixed += next;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    fixed += char;
  }
  return compiles(fixed) ? fixed : undefined;
}
