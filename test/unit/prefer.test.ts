import { InvalidPreferenceError, preferredCode } from '../../src/contract/prefer.js';

function refusal(header: string): InvalidPreferenceError {
  try {
    preferredCode(header);
  } catch (error) {
    if (error instanceof InvalidPreferenceError) return error;
    throw error;
  }
  throw new Error(`preferredCode(${JSON.stringify(header)}) did not throw`);
}

describe('preferredCode (Prefer header, Prism grammar)', () => {
  it('returns undefined without a header', () => {
    expect(preferredCode(undefined)).toBeUndefined();
  });

  it.each([
    ['code=404', 404],
    ['code=200', 200],
    ['example=x, code=404', 404],
    ['dynamic=true,code=401', 401],
    ['code="401"', 401],
    ['code=404;foo=bar', 404],
    ['  code = 404  ', 404],
    ['CODE=401', 401],
    ['respond-async, code=201; wait=10', 201],
  ])('reads %j as %i', (header, code) => {
    expect(preferredCode(header)).toBe(code);
  });

  it.each(['', 'example=x', 'dynamic=true, respond-async', 'return=minimal', 'codes=404', 'code'])(
    'returns undefined when no code preference is given: %j',
    (header) => {
      expect(preferredCode(header)).toBeUndefined();
    },
  );

  it.each(['code=4x4', 'code=1000', 'code=40', 'code=', 'code="abc"', 'code=-40', 'code=40 4'])(
    'refuses %j as an invalid preference, from the control plane',
    (header) => {
      expect(refusal(header).message).toMatch(/control plane/);
    },
  );

  it('quotes the bad value in its message', () => {
    expect(refusal('code=4x4').message).toContain('"4x4"');
  });
});
