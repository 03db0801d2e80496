/** Draws a whole number from min to max, both included: the caller's seeded source. */
export type DrawInt = (min: number, max: number) => number;

/** A pattern this generator cannot write a string for (a lookaround, a back-reference). */
export class UnsupportedPatternError extends Error {
  override name = 'UnsupportedPatternError';
}

type Range = readonly [number, number];
interface CharSet {
  readonly ranges: readonly Range[];
  readonly negated: boolean;
}
type Atom =
  | { readonly kind: 'chars'; readonly set: CharSet }
  | { readonly kind: 'group'; readonly options: readonly Sequence[] }
  | { readonly kind: 'anchor' };
interface Item {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}
type Sequence = readonly Item[];

/** Unbounded repetitions (`*`, `+`, `{n,}`) are written at most this many times over their minimum. */
const EXTRA_REPEATS = 3;
const PRINTABLE: Range = [0x20, 0x7e];
const DIGITS: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: readonly Range[] = [[0x20, 0x20]];
const ANY: CharSet = { ranges: [[0x0a, 0x0a]], negated: true };
const CONTROL_ESCAPES: Readonly<Record<string, number>> = {
  n: 10,
  r: 13,
  t: 9,
  f: 12,
  v: 11,
  '0': 0,
};

/**
 * A small parser of the regular expressions contracts write in `pattern`: literals, escapes
 * (\d \w \s and their negations, \n, \xHH, \uHHHH), classes with ranges and negation, `.`,
 * groups (capturing, `(?:`, named) with `|`, and the quantifiers ? * + {n} {n,} {n,m} (lazy too).
 * faker.helpers.fromRegExp knows no anchors, groups, alternation or \d, which most patterns use.
 */
class PatternParser {
  #at = 0;

  constructor(private readonly source: string) {}

  parse(): Sequence[] {
    const options = this.#alternatives();
    if (this.#at < this.source.length) this.#fail(`unexpected "${this.source[this.#at] ?? ''}"`);
    return options;
  }

  #fail(problem: string): never {
    throw new UnsupportedPatternError(`pattern /${this.source}/: ${problem} at ${this.#at}`);
  }

  #peek(): string | undefined {
    return this.source[this.#at];
  }

  #next(): string {
    const char = this.source[this.#at];
    if (char === undefined) this.#fail('unexpected end');
    this.#at += 1;
    return char;
  }

  #alternatives(): Sequence[] {
    const options = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#at += 1;
      options.push(this.#sequence());
    }
    return options;
  }

  #sequence(): Item[] {
    const items: Item[] = [];
    for (let char = this.#peek(); char !== undefined && char !== '|' && char !== ')';) {
      const atom = this.#atom();
      const next = this.#peek();
      if (atom.kind === 'anchor' && next !== undefined && '*+?{'.includes(next)) {
        this.#fail(`nothing to repeat before "${next}"`);
      }
      items.push({ atom, ...this.#quantifier() });
      char = this.#peek();
    }
    return items;
  }

  #atom(): Atom {
    const char = this.#next();
    switch (char) {
      case '^':
      case '$':
        return { kind: 'anchor' };
      case '.':
        return { kind: 'chars', set: ANY };
      case '[':
        return { kind: 'chars', set: this.#charClass() };
      case '(':
        return this.#group();
      case '\\':
        return this.#escape();
      case '*':
      case '+':
      case '?':
      case '{':
        return this.#fail(`nothing to repeat before "${char}"`);
      default:
        return literal(char.codePointAt(0) ?? 0);
    }
  }

  #group(): Atom {
    if (this.#peek() === '?') {
      this.#at += 1;
      const kind = this.#next();
      if (kind === '<' && this.#peek() !== '=' && this.#peek() !== '!') {
        while (this.#next() !== '>');
      } else if (kind !== ':') {
        this.#fail('lookarounds are not supported');
      }
    }
    const options = this.#alternatives();
    if (this.#next() !== ')') this.#fail('unclosed group');
    return { kind: 'group', options };
  }

  #escape(): Atom {
    const char = this.#next();
    const set = classEscape(char);
    if (set) return { kind: 'chars', set };
    if (/[1-9bBk]/.test(char)) this.#fail(`\\${char} is not supported`);
    return literal(this.#escapedCode(char));
  }

  #escapedCode(char: string): number {
    const control = CONTROL_ESCAPES[char];
    if (control !== undefined) return control;
    if (char === 'x') return this.#hex(2);
    if (char === 'u') {
      if (this.#peek() !== '{') return this.#hex(4);
      this.#at += 1;
      const end = this.source.indexOf('}', this.#at);
      if (end < 0) this.#fail('unclosed \\u{');
      const code = Number.parseInt(this.source.slice(this.#at, end), 16);
      this.#at = end + 1;
      return code;
    }
    return char.codePointAt(0) ?? 0;
  }

  #hex(digits: number): number {
    const text = this.source.slice(this.#at, this.#at + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text)) this.#fail('bad hex escape');
    this.#at += digits;
    return Number.parseInt(text, 16);
  }

  #charClass(): CharSet {
    const negated = this.#peek() === '^';
    if (negated) this.#at += 1;
    const ranges: Range[] = [];
    while (this.#peek() !== ']') {
      const start = this.#classChar();
      if (typeof start !== 'number') {
        ranges.push(...start);
        continue;
      }
      if (this.#peek() === '-' && this.source[this.#at + 1] !== ']') {
        this.#at += 1;
        const end = this.#classChar();
        if (typeof end !== 'number' || end < start) this.#fail('bad range in a class');
        ranges.push([start, end]);
      } else {
        ranges.push([start, start]);
      }
    }
    this.#at += 1;
    return { ranges, negated };
  }

  /** One character of a class, or the ranges of a class escape such as \d. */
  #classChar(): number | readonly Range[] {
    const char = this.#next();
    if (char !== '\\') return char.codePointAt(0) ?? 0;
    const escaped = this.#next();
    const set = classEscape(escaped);
    if (set) {
      if (set.negated) this.#fail(`\\${escaped} inside a class is not supported`);
      return set.ranges;
    }
    if (escaped === 'b') return 8;
    return this.#escapedCode(escaped);
  }

  #quantifier(): { min: number; max: number } {
    const char = this.#peek();
    let bounds: { min: number; max: number } | undefined;
    if (char === '?') bounds = { min: 0, max: 1 };
    else if (char === '*') bounds = { min: 0, max: Infinity };
    else if (char === '+') bounds = { min: 1, max: Infinity };
    else if (char === '{') {
      const found = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#at));
      if (found) {
        const min = Number(found[1]);
        const max = found[2] === undefined ? min : found[3] ? Number(found[3]) : Infinity;
        this.#at += found[0].length - 1;
        bounds = { min, max };
      }
    }
    if (!bounds) return { min: 1, max: 1 };
    this.#at += 1;
    // A lazy quantifier generates the same strings.
    if (this.#peek() === '?') this.#at += 1;
    return bounds;
  }
}

function literal(code: number): Atom {
  return { kind: 'chars', set: { ranges: [[code, code]], negated: false } };
}

function classEscape(char: string): CharSet | undefined {
  const ranges = { d: DIGITS, w: WORD, s: SPACE }[char.toLowerCase()];
  return ranges && { ranges, negated: char !== char.toLowerCase() };
}

function inRanges(code: number, ranges: readonly Range[]): boolean {
  return ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

function drawChar(set: CharSet, draw: DrawInt): string {
  if (!set.negated) {
    const sizes = set.ranges.map(([lo, hi]) => hi - lo + 1);
    let index = draw(0, sizes.reduce((a, b) => a + b, 0) - 1);
    for (const [i, [lo]] of set.ranges.entries()) {
      const size = sizes[i] ?? 0;
      if (index < size) return String.fromCodePoint(lo + index);
      index -= size;
    }
  }
  const allowed: number[] = [];
  for (let code = PRINTABLE[0]; code <= PRINTABLE[1]; code += 1) {
    if (!inRanges(code, set.ranges)) allowed.push(code);
  }
  const code = allowed[draw(0, allowed.length - 1)];
  if (code === undefined)
    throw new UnsupportedPatternError('a class that excludes every character');
  return String.fromCodePoint(code);
}

function writeSequence(sequence: Sequence, draw: DrawInt): string {
  let text = '';
  for (const { atom, min, max } of sequence) {
    if (atom.kind === 'anchor') continue;
    const times = draw(min, Math.min(max, min + EXTRA_REPEATS));
    for (let i = 0; i < times; i += 1) {
      text += atom.kind === 'chars' ? drawChar(atom.set, draw) : writeOptions(atom.options, draw);
    }
  }
  return text;
}

function writeOptions(options: readonly Sequence[], draw: DrawInt): string {
  const chosen = options[draw(0, options.length - 1)] ?? [];
  return writeSequence(chosen, draw);
}

/**
 * A string the pattern matches, drawn with the caller's seeded source; throws
 * UnsupportedPatternError for syntax it does not know. The caller checks the result against
 * the pattern itself (an unanchored pattern, or one with anchors inside, may need that).
 */
export function stringFromPattern(pattern: string, draw: DrawInt): string {
  return writeOptions(new PatternParser(pattern).parse(), draw);
}
