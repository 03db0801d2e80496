import { acceptsJson } from '../../src/http/accept.js';

describe('acceptsJson', () => {
  it.each([
    [undefined],
    [''],
    ['application/json'],
    ['Application/JSON'],
    ['application/json; charset=utf-8'],
    ['*/*'],
    ['application/*'],
    ['text/html, application/json;q=0.5'],
    ['*/*;q=0.1'],
    ['application/json;q=abc'],
    ['text/html;q=0, application/json'],
  ])('accepts JSON for %j', (header) => {
    expect(acceptsJson(header)).toBe(true);
  });

  it.each([
    ['text/html'],
    ['image/png, text/*'],
    ['application/json;q=0'],
    ['application/json;q=0, */*'],
    ['application/*;q=0, */*'],
    ['application/xml'],
  ])('refuses JSON for %j', (header) => {
    expect(acceptsJson(header)).toBe(false);
  });
});
