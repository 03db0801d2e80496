import { stringFromPattern, UnsupportedPatternError } from '../../src/contract/pattern-string.js';
import { createRandom } from '../../src/util/random.js';

/** A seeded draw of whole numbers from min to max, both included. */
function drawFrom(seed: number): (min: number, max: number) => number {
  const random = createRandom(seed);
  return (min, max) => min + Math.floor(random() * (max - min + 1));
}

const PATTERNS = [
  '^[A-Z]{3}-\\d{4}$',
  '^(cat|dog|fish)_[a-f0-9]{6}(-v\\d+)?$',
  '^\\w+@\\w+\\.(com|org)$',
  '^[^0-9\\s]{2,5}$',
  '^\\$\\d{1,3}(,\\d{3})*\\.\\d{2}$',
  '^(?:[01]\\d|2[0-3]):[0-5]\\d$',
  '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$',
  '^[\\w.-]+$',
  '^a*b+c?d{2,}e{1,2}?$',
  '^\\x41\\u0042\\u{43}\\n?\\t?$',
  '^[A-Z\\d][a-z\\-]*$',
  'no-anchors',
  '^$',
  '^.{3}$',
  '^\\D\\W\\S$',
];

describe('stringFromPattern', () => {
  it.each(PATTERNS)('writes strings /%s/ matches', (pattern) => {
    const regExp = new RegExp(pattern, 'u');
    for (let seed = 1; seed <= 50; seed += 1) {
      const text = stringFromPattern(pattern, drawFrom(seed));
      expect([text, regExp.test(text)]).toEqual([text, true]);
    }
  });

  it('the same draw gives the same string', () => {
    const pattern = '^[a-z]{5,10}$';
    expect(stringFromPattern(pattern, drawFrom(3))).toBe(stringFromPattern(pattern, drawFrom(3)));
  });

  it.each([
    ['a lookahead', '^(?=.*\\d).+$'],
    ['a negative lookbehind', '(?<!a)b'],
    ['a back-reference', '^(a)\\1$'],
    ['a word boundary', '\\bword\\b'],
    ['nothing to repeat', '^*a$'],
    ['an unclosed group', '^(ab$'],
  ])('refuses %s, naming the pattern', (_what, pattern) => {
    expect(() => stringFromPattern(pattern, drawFrom(1))).toThrow(UnsupportedPatternError);
    expect(() => stringFromPattern(pattern, drawFrom(1))).toThrow(`pattern /${pattern}/`);
  });
});
