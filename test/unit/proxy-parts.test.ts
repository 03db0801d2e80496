import express from 'express';
import request from 'supertest';
import { contractViolation, upstreamUnreachable } from '../../src/http/to-http-error.js';
import { forwardedHeaders, relayAnswerHeaders } from '../../src/proxy/proxy-headers.js';
import { readUpstreamAnswer } from '../../src/proxy/read-answer.js';
import type { UpstreamAnswer } from '../../src/proxy/upstream-client.js';
import { contract } from '../helpers/test-app.js';

const listPets = contract.operations.byName('listPets');
if (!listPets) throw new Error('the contract has no listPets');

function answer(status: number, body: string, type = 'application/json'): UpstreamAnswer {
  return { status, headers: { 'content-type': type }, body: Buffer.from(body) };
}

describe('readUpstreamAnswer: what the validator cannot judge', () => {
  it('reads a documented JSON answer exactly, int64 digits and text kept', () => {
    const text = '[{"id":9007199254740993,"name":"Big","categoryId":1}]';
    const read = readUpstreamAnswer(answer(200, text), listPets);
    expect(read.violations).toEqual([]);
    expect(read.json?.text).toBe(text);
    expect(read.json?.exact).toEqual([{ id: 9007199254740993n, name: 'Big', categoryId: 1 }]);
  });

  it.each([
    ['an undocumented status', answer(404, '{}'), 'status 404 is not documented for listPets'],
    [
      'a content coding',
      {
        ...answer(200, '[]'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      },
      '"gzip"',
    ],
    ['another media type', answer(200, '[]', 'text/json'), '"text/json", not application/json'],
    [
      'no Content-Type',
      { status: 200, headers: {}, body: Buffer.from('[]') },
      'without a Content-Type',
    ],
    ['invalid UTF-8', { ...answer(200, ''), body: Buffer.from([0x5b, 0xff, 0x5d]) }, 'not JSON'],
    ['a byte order mark', answer(200, '\ufeff[]'), 'not JSON'],
    ['an empty body', answer(200, ''), 'not JSON'],
    ['null', answer(200, 'null'), 'must be a JSON object or array'],
    [
      'an int64 out of range',
      answer(200, '[{"id":-9223372036854775809}]'),
      '/response/0/id must be an int64',
    ],
  ])('names %s', (_label, given, named) => {
    const read = readUpstreamAnswer(given, listPets);
    expect(read.violations).toEqual([expect.stringContaining(named)]);
  });

  it('keeps a JSON body with an out-of-range int64, to relay it as it came', () => {
    const read = readUpstreamAnswer(answer(200, '[{"id":18446744073709551616}]'), listPets);
    expect(read.json?.text).toBe('[{"id":18446744073709551616}]');
  });
});

describe('forwardedHeaders', () => {
  it("sends the client's Authorization and Content-Type, and what the mock needs", () => {
    const headers = forwardedHeaders(
      {
        authorization: 'Bearer k',
        'content-type': 'application/json',
        cookie: 'a=b',
        via: '1.0 x',
      },
      'req-1',
      '{"name":"é"}',
    );
    expect(headers).toEqual({
      accept: 'application/json',
      'accept-encoding': 'identity',
      authorization: 'Bearer k',
      'content-type': 'application/json',
      'content-length': '13', // 12 characters, é in two bytes
      'x-request-id': 'req-1',
      via: '1.0 x, 1.1 petstore-mock',
    });
  });

  it('says UTF-8 where the client declared another charset: the body goes on decoded', () => {
    const headers = forwardedHeaders(
      { 'content-type': 'application/json; charset=latin1' },
      '',
      '{}',
    );
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    const kept = forwardedHeaders({ 'content-type': 'application/json; charset=UTF-8' }, '', '{}');
    expect(kept['content-type']).toBe('application/json; charset=UTF-8');
  });

  it('sends no body headers without a body', () => {
    const headers = forwardedHeaders({ 'content-type': 'application/json' }, '', undefined);
    expect(headers['content-type']).toBeUndefined();
    expect(headers['content-length']).toBeUndefined();
  });
});

describe('relayAnswerHeaders', () => {
  it("puts the mock's own headers back when the answer is refused after all", async () => {
    const app = express();
    app.set('etag', false);
    app.get('/', (_req, res) => {
      res.setHeader('Deprecation', '@1');
      res.setHeader('Vary', 'Origin');
      const restore = relayAnswerHeaders(res, {
        deprecation: '@2',
        etag: '"x"',
        vary: 'Accept',
        connection: 'keep-alive',
      });
      expect(res.getHeader('etag')).toBe('"x"');
      expect(res.getHeader('vary')).toBe('Origin, Accept');
      restore();
      res.json({});
    });
    const res = await request(app).get('/');
    expect(res.headers.deprecation).toBe('@1');
    expect(res.headers.vary).toBe('Origin');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers.via).toBeUndefined();
  });
});

describe('the 502 errors of proxy mode', () => {
  it('contract_violation names at most five violations, and counts the rest', () => {
    const violations = Array.from({ length: 7 }, (_, i) => `/response/${i}/id must be integer`);
    const error = contractViolation('listPets', 200, violations);
    expect(error.toBody()).toMatchObject({ code: 'contract_violation', status: 502 });
    expect(error.message).toContain('/response/4/id');
    expect(error.message).not.toContain('/response/5/id');
    expect(error.message).toContain('(and 2 more)');
    expect(error.details).toEqual(violations);
  });

  it('upstream_unreachable says where and why', () => {
    const error = upstreamUnreachable('http://127.0.0.1:1/v1', 'connection refused (ECONNREFUSED)');
    expect(error.toBody()).toEqual({
      code: 'upstream_unreachable',
      message:
        'The real service at http://127.0.0.1:1/v1 could not be reached: connection refused (ECONNREFUSED).',
      status: 502,
    });
  });
});
