/**
 * Bring your own contract, 4: answers. An operation is answered in the media type the client
 * accepts among those documented (406 otherwise, before anything runs): JSON, XML (an example as
 * written, or data written from the schema's `xml` objects), text, or a small valid file; with its
 * documented headers, a redirect's Location, no body for no content, its source in X-Mock-Answer,
 * and the status it answers by itself.
 */
import type { Test } from 'supertest';
import request from 'supertest';
import { expectError } from '../helpers/http-matrix.js';
import { errors, loadOwn, NO_RESOURCES, ownApp, record } from '../helpers/own-contract.js';

const shop = loadOwn('answers', 'answers.yaml');
const ISBN = '9780000000001';

/** An app that answers from the contract: its books and authors are no resources here. */
async function shopApp() {
  return ownApp(shop, { resources: NO_RESOURCES });
}

async function app() {
  return (await shopApp()).app;
}

/** The response's body as the bytes sent, whatever its media type. */
async function bytesOf(
  req: Test,
): Promise<{ status: number; type: string; bytes: Buffer; source: unknown }> {
  const res = await req.buffer(true).parse((stream, done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      done(null, Buffer.concat(chunks));
    });
  });
  const body: unknown = res.body;
  if (!Buffer.isBuffer(body)) throw new Error('no bytes');
  return {
    status: res.status,
    type: String(res.headers['content-type']),
    bytes: body,
    source: res.headers['x-mock-answer'],
  };
}

describe('the media type the client accepts, among those documented', () => {
  it('JSON first where the client says nothing', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-mock-answer']).toBe('example');
    expect(res.body).toEqual({ month: '2026-03', sold: 1200 });
  });

  it('XML: the example string as it is written', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .set('Accept', 'application/xml')
      .expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['x-mock-answer']).toBe('example');
    expect(res.text).toBe('<report month="2026-03"><sold>1200</sold></report>');
  });

  it('text: the example, by the preference of Accept', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .set('Accept', 'application/xml;q=0.5, text/csv')
      .expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe('month,sold\n2026-03,1200\n');
  });

  it('none of them: 406 not_acceptable naming what it answers', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .set('Accept', 'image/png');
    const { message } = expectError(res, 406, 'not_acceptable');
    expect(message).toContain('application/xml');
    expect(message).toContain('text/csv');
  });

  it('the 406 comes before anything runs: a scenario that would reset the connection', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .set('Accept', 'image/png')
      .set('X-Mock-Scenario', 'connection-reset');
    expectError(res, 406, 'not_acceptable');
  });
});

describe('other JSON media types', () => {
  it('a `+json` answer is JSON, sent under its own media type', async () => {
    const res = await request(await app())
      .get('/shop/authors/9')
      .expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({ data: { type: 'authors', id: '9' } });
  });
});

describe('XML written from the schema', () => {
  it("names, an attribute, a wrapped array, the namespace and prefix of the schema's `xml`", async () => {
    const res = await request(await app())
      .get(`/shop/books/${ISBN}`)
      .set('Accept', 'application/xml')
      .expect(200);
    expect(res.headers['x-mock-answer']).toBe('generated');
    expect(res.text).toMatch(
      new RegExp(
        '^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\\n' +
          '<bk:book xmlns:bk="https://bookshop\\.example\\.com/ns/book" isbn="\\d{13}">' +
          '<title>[^<]*</title>' +
          '<authors>(<author>[^<]*</author>){1,2}</authors>' +
          '</bk:book>$',
      ),
    );
  });

  it('a wrapped top-level array under its own name, each item named by its schema', async () => {
    const res = await request(await app())
      .get('/shop/books')
      .set('Accept', 'application/xml')
      .expect(200);
    expect(res.text).toMatch(
      /^<\?xml[^>]*>\n<catalogue>(<bk:book xmlns:bk="[^"]+" isbn="\d{13}">.*?<\/bk:book>)+<\/catalogue>$/,
    );
  });

  it('the same operation as JSON: generated data that keeps to the schema', async () => {
    const { app: client, logs } = await shopApp();
    const res = await request(client).get(`/shop/books/${ISBN}`).expect(200);
    expect(res.headers['x-mock-answer']).toBe('generated');
    expect(shop.checkSchema('Book')(res.body)).toEqual([]);
    expect(errors(logs)).toEqual([]);
  });
});

describe('text and binary answers', () => {
  it('text without an example: a generated string that keeps to its schema', async () => {
    const res = await request(await app())
      .get('/shop/blurb')
      .expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-mock-answer']).toBe('generated');
    expect(res.text.length).toBeGreaterThanOrEqual(10);
    expect(res.text.length).toBeLessThanOrEqual(40);
  });

  it.each([
    ['image/png', '89504e470d0a1a0a'],
    ['image/jpeg', 'ffd8ff'],
    ['image/gif', '47494638'],
  ])('%s: a small valid file', async (type, magic) => {
    const client = await app();
    const answer = await bytesOf(request(client).get(`/shop/covers/${ISBN}`).set('Accept', type));
    expect(answer).toMatchObject({ status: 200, type, source: 'sample-file' });
    expect(answer.bytes.subarray(0, magic.length / 2).toString('hex')).toBe(magic);
  });

  it('application/pdf: a small valid file', async () => {
    const answer = await bytesOf(request(await app()).get('/shop/invoices/2026-001'));
    expect(answer).toMatchObject({ status: 200, type: 'application/pdf', source: 'sample-file' });
    const text = answer.bytes.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('application/zip: a small valid file', async () => {
    const answer = await bytesOf(request(await app()).get('/shop/exports/latest'));
    expect(answer).toMatchObject({ status: 200, type: 'application/zip', source: 'sample-file' });
    // An empty archive: its end-of-central-directory record.
    expect(answer.bytes.subarray(0, 4).toString('latin1')).toBe('PK\x05\x06');
  });
});

describe('headers, redirects and no content', () => {
  it('documented response headers, from their example or generated', async () => {
    const res = await request(await app())
      .get('/shop/report')
      .expect(200);
    expect(res.headers['x-rate-limit-remaining']).toBe('99');
    const cost = Number(res.headers['x-report-cost']);
    expect(cost).toBeGreaterThanOrEqual(1);
    expect(cost).toBeLessThanOrEqual(5);
  });

  it('a 3xx with its documented Location', async () => {
    const res = await request(await app())
      .get('/shop/old-report')
      .redirects(0);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('https://bookshop.example.com/shop/report');
  });

  it('a 3xx with no Location documented goes to the API root', async () => {
    const res = await request(await app())
      .get('/shop/checkout')
      .redirects(0);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/shop/');
  });

  it('204: no body at all', async () => {
    const res = await request(await app())
      .delete(`/shop/books/${ISBN}/reservation`)
      .expect(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });
});

describe('the status an operation answers by itself', () => {
  it('the lowest 2xx, whatever order they are written in', async () => {
    const res = await request(await app())
      .post(`/shop/books/${ISBN}/reservation`)
      .expect(201);
    expect(res.body).toEqual({ ticket: 'R-1' });
  });

  it('the lowest 3xx where there is no 2xx (not the 404)', async () => {
    const res = await request(await app())
      .get('/shop/checkout')
      .redirects(0);
    expect(res.status).toBe(302);
  });

  it('200 for `2XX`', async () => {
    const res = await request(await app())
      .get('/shop/stock')
      .expect(200);
    expect(record(res.body).count).toBeGreaterThanOrEqual(0);
  });

  it('200 for `default`', async () => {
    const res = await request(await app())
      .get('/shop/ping')
      .expect(200);
    expect(res.body).toEqual({ pong: true });
  });

  it('another documented status on request (Prefer), from its own schema', async () => {
    const res = await request(await app())
      .post(`/shop/books/${ISBN}/reservation`)
      .set('Prefer', 'code=202')
      .expect(202);
    expect(res.headers['x-mock-answer']).toBe('generated');
    expect(record(res.body).ticket).toMatch(/^R-\d+$/);
  });
});
