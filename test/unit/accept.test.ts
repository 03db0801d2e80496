import request from 'supertest';
import { AUTH, createTestApp, type TestApp } from '../helpers/test-app.js';

// The Accept check is Express's own negotiation (req.accepts): these pin what it lets through.
describe('Accept', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  it.each([
    [''],
    ['application/json'],
    ['Application/JSON'],
    ['application/json; charset=utf-8'],
    ['*/*'],
    ['application/*'],
    ['text/html, application/json;q=0.5'],
    ['*/*;q=0.1'],
    ['text/html;q=0, application/json'],
  ])('answers JSON for %j', async (accept) => {
    const res = await request(test.app).get('/v1/pets?limit=1').set(AUTH).set('Accept', accept);
    expect(res.status).toBe(200);
  });

  it('answers JSON without an Accept header', async () => {
    const res = await request(test.app).get('/v1/pets?limit=1').set(AUTH).unset('Accept');
    expect(res.status).toBe(200);
  });

  it.each([
    ['text/html'],
    ['image/png, text/*'],
    ['application/json;q=0'],
    ['application/json;q=0, */*'],
    ['application/*;q=0, */*'],
    ['application/xml'],
    // An unreadable quality is no quality: negotiator refuses the range (RFC 9110 §12.4.2).
    ['application/json;q=abc'],
    // Answers are UTF-8.
    ['application/json;charset=latin1'],
  ])('refuses %j with 406 not_acceptable', async (accept) => {
    const res = await request(test.app).get('/v1/pets?limit=1').set(AUTH).set('Accept', accept);
    expect(res.status).toBe(406);
    expect(res.body).toMatchObject({ code: 'not_acceptable', status: 406 });
  });
});
