// A scenario's delay: a fixed number, or a range drawn from the session's seeded generator, both
// ends included ("800 to 1500 ms"). Drawn here rather than timed: a timer says little of an upper
// bound on a loaded machine.
import fc from 'fast-check';
import { delayMs } from '../../src/api/scenario-step.js';
import { MAX_DELAY_MS } from '../../src/contract/scenario.js';
import { createRandom } from '../../src/util/random.js';
import { shippedScenarios } from '../helpers/test-app.js';

/** The largest number a Random may give: just under 1 (mulberry32's largest, 1 - 2^-32). */
const JUST_UNDER_ONE = (2 ** 32 - 1) / 2 ** 32;

describe('delayMs', () => {
  it('holds a fixed delay whatever the generator gives', () => {
    expect(delayMs({ fixed: 300 }, () => 0)).toBe(300);
    expect(delayMs({ fixed: 300 }, () => JUST_UNDER_ONE)).toBe(300);
  });

  it('draws min for the smallest number and max for the largest', () => {
    expect(delayMs({ min: 800, max: 1500 }, () => 0)).toBe(800);
    expect(delayMs({ min: 800, max: 1500 }, () => JUST_UNDER_ONE)).toBe(1500);
    expect(delayMs({ min: 200, max: 200 }, () => JUST_UNDER_ONE)).toBe(200);
  });

  it('draws a whole number of milliseconds within the range, for any range and number', () => {
    const range = fc
      .tuple(fc.nat(MAX_DELAY_MS), fc.nat(MAX_DELAY_MS))
      .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
    const number = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
    fc.assert(
      fc.property(range, number, (delay, drawn) => {
        const ms = delayMs(delay, () => drawn);
        return Number.isInteger(ms) && ms >= delay.min && ms <= delay.max;
      }),
      { seed: 7001, numRuns: 2000 },
    );
  });

  it('reaches both ends of the shipped slow scenario (800 to 1500 ms) from a seed, nothing outside', () => {
    const delay = shippedScenarios.get('slow')?.rules[0]?.delay;
    expect(delay).toEqual({ min: 800, max: 1500 });
    if (delay === undefined) throw new Error('the slow scenario has no delay');
    const random = createRandom(1);
    const drawn = Array.from({ length: 20_000 }, () => delayMs(delay, random));
    expect(Math.min(...drawn)).toBe(800);
    expect(Math.max(...drawn)).toBe(1500);
  });
});
