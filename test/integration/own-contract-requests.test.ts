/**
 * Bring your own contract, 8: requests as the contract writes them. Path parameters in label and
 * matrix style, objects in a path, cookie and header parameters, API keys sent in the query
 * together; path keys alike but for their names, told apart by a `#fragment`, with a hyphenated
 * parameter or a more specific suffix; discriminated oneOfs, readOnly schemas reused for
 * parameters, writeOnly properties written as allOf; loosely documented answers and optional
 * bodies left out.
 */
import type { Test } from 'supertest';
import request from 'supertest';
import { expectError } from '../helpers/http-matrix.js';
import {
  errors,
  isRecord,
  loadOwn,
  NO_RESOURCES,
  ownApp,
  record,
} from '../helpers/own-contract.js';

const styles = loadOwn('requests', 'parameters.yaml');
const routes = loadOwn('requests', 'routes.yaml');
const shelter = loadOwn('requests', 'schemas.yaml');
const gallery = loadOwn('requests', 'answers.yaml');

async function stylesApp() {
  return (await ownApp(styles)).app;
}

async function routesApp() {
  return (await ownApp(routes)).app;
}

async function shelterApp() {
  return (await ownApp(shelter)).app;
}

async function galleryApp() {
  return (await ownApp(gallery)).app;
}

/** The response's body as the bytes sent, whatever its media type. */
async function bytesOf(req: Test): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await req.buffer(true).parse((stream, done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      done(null, Buffer.concat(chunks));
    });
  });
  const body: unknown = res.body;
  if (!Buffer.isBuffer(body)) throw new Error('no bytes');
  return { status: res.status, type: String(res.headers['content-type']), bytes: body };
}

describe('path parameters in label and matrix style', () => {
  it.each([
    ['label', '/label/.5/.3,4,5'],
    ['label, exploded', '/label-exploded/.5/.3.4.5'],
    ['matrix', '/matrix/;id=5/;ids=3,4,5'],
    ['matrix, exploded', '/matrix-exploded/;id=5/;ids=3;ids=4'],
    // Simple style writes an array alike, exploded or not: the value the others are rewritten to.
    ['simple, exploded', '/simple-exploded/5/3,4,5'],
  ])('%s: a primitive and an array as written → 200', async (_label, path) => {
    const res = await request(await stylesApp())
      .get(`/styled${path}`)
      .expect(200);
    expect(res.body).toEqual({ ok: true });
  });

  it.each([
    ['label: a primitive above its maximum', '/label/.12/.3', 'id'],
    ['label: an item above its maximum', '/label/.5/.3,40', 'ids'],
    ['label, exploded: an item that is no integer', '/label-exploded/.5/.3.x', 'ids'],
    ['matrix: a primitive that is no integer', '/matrix/;id=x/;ids=3', 'id'],
    ['matrix: an item above its maximum', '/matrix/;id=5/;ids=3,12', 'ids'],
    ['matrix, exploded: an item above its maximum', '/matrix-exploded/;id=5/;ids=3;ids=12', 'ids'],
  ])('%s → 400 naming the parameter', async (_label, path, name) => {
    const res = await request(await stylesApp()).get(`/styled${path}`);
    expect(expectError(res, 400, 'bad_request').message).toContain(name);
  });
});

describe('object path parameters, parsed and checked against their schema', () => {
  it.each([
    ['simple', '/simple/role,admin,name,Alex'],
    ['simple, exploded', '/simple-exploded/role=admin,name=Alex'],
    ['label', '/label/.role,admin,name,Alex'],
    ['matrix', '/matrix/;member=role,admin,name,Alex'],
    ['matrix, exploded', '/matrix-exploded/;role=admin;name=Alex;level=2'],
  ])('%s → 200', async (_label, path) => {
    await request(await stylesApp())
      .get(`/styled/members${path}`)
      .expect(200);
  });

  it.each([
    ['simple', '/simple/role,admin,name,Alex,level,high'],
    ['simple, exploded', '/simple-exploded/role=admin,name=Alex,level=high'],
    ['label', '/label/.role,admin,name,Alex,level,high'],
    ['matrix', '/matrix/;member=role,admin,name,Alex,level,high'],
    ['matrix, exploded', '/matrix-exploded/;role=admin;name=Alex;level=high'],
  ])('%s: a property of the wrong type → 400 naming the parameter', async (_label, path) => {
    const res = await request(await stylesApp()).get(`/styled/members${path}`);
    expect(expectError(res, 400, 'bad_request').message).toContain("'member'");
  });

  it.each([
    ['a value outside its enum', '/simple/role,guest,name,Alex'],
    ['a required property missing', '/simple-exploded/name=Alex'],
  ])('%s → 400 naming the parameter', async (_label, path) => {
    const res = await request(await stylesApp()).get(`/styled/members${path}`);
    expect(expectError(res, 400, 'bad_request').message).toContain("'member'");
  });
});

describe('cookie and header parameters', () => {
  it('a required cookie sent, the optional array cookie left out → 200', async () => {
    await request(await stylesApp())
      .get('/styled/preferences')
      .set('Cookie', 'theme=dark; session=s-1')
      .expect(200);
  });

  it('the required cookie missing → 400 naming it', async () => {
    const res = await request(await stylesApp()).get('/styled/preferences');
    expect(expectError(res, 400, 'bad_request').message).toContain('session');
  });

  it('the required cookie outside its schema → 400 naming it', async () => {
    const res = await request(await stylesApp())
      .get('/styled/preferences')
      .set('Cookie', 'session=nope');
    expect(expectError(res, 400, 'bad_request').message).toContain('session');
  });

  it('header parameters with no style written: an integer and a list → 200', async () => {
    await request(await stylesApp())
      .get('/styled/preferences')
      .set({ Cookie: 'session=s-1', 'X-Priority': '3', 'X-Labels': 'red,blue' })
      .expect(200);
  });

  it('a header outside its schema → 400 naming it', async () => {
    const res = await request(await stylesApp())
      .get('/styled/preferences')
      .set({ Cookie: 'session=s-1', 'X-Priority': '9' });
    expect(expectError(res, 400, 'bad_request').message.toLowerCase()).toContain('x-priority');
  });
});

describe('API keys in the query, required together', () => {
  it('both sent → 200, not an unknown query parameter', async () => {
    const res = await request(await stylesApp())
      .get('/styled/reports?app_id=a-1&app_key=k-1')
      .expect(200);
    expect(res.body).toEqual({ ok: true });
  });

  it.each([['app_id=a-1'], ['app_key=k-1']])('only %s → 401', async (query) => {
    const res = await request(await stylesApp()).get(`/styled/reports?${query}`);
    expectError(res, 401, 'unauthorized');
  });

  it('a query parameter neither documented nor a key is still refused', async () => {
    const res = await request(await stylesApp()).get(
      '/styled/reports?app_id=a-1&app_key=k-1&debug=1',
    );
    expect(expectError(res, 400, 'bad_request').message).toContain('debug');
  });
});

describe('routes', () => {
  it('paths alike but for their parameters’ names: each method answers', async () => {
    const client = await routesApp();
    await request(client).delete('/routes/fields/3').expect(204);
    const res = await request(client).put('/routes/fields/3').expect(200);
    expect(res.body).toEqual({ from: 'replaceField' });
  });

  it('…and a method neither has is a 405 allowing both', async () => {
    const res = await request(await routesApp()).patch('/routes/fields/3');
    expectError(res, 405, 'method_not_allowed');
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['DELETE', 'PUT']);
  });

  it.each([['/routes/links/1'], ['/routes/links/1?fields=title']])(
    'a `#fragment` variant of a path: %s → 200',
    async (path) => {
      const res = await request(await routesApp())
        .get(path)
        .expect(200);
      expect(res.body).toEqual({ from: 'a link' });
    },
  );

  it('a method only a `#fragment` variant has is routed to it', async () => {
    const client = await routesApp();
    const put = await request(client).put('/routes/schema').expect(200);
    expect(put.body).toEqual({ from: 'addToSchema' });
    const get = await request(client).get('/routes/schema').expect(200);
    expect(get.body).toEqual({ from: 'getSchema' });
  });

  it('a hyphenated path parameter is routed and answered', async () => {
    const res = await request(await routesApp())
      .get('/routes/users/42')
      .expect(200);
    expect(res.body).toEqual({ from: 'getUser' });
  });

  it('a hyphenated path parameter outside its schema → 400 naming it as the contract does', async () => {
    const res = await request(await routesApp()).get('/routes/users/0');
    expect(expectError(res, 400, 'bad_request').message).toContain('user-id');
  });

  it('`/commits/{sha}.{kind}` is matched before `/commits/{sha}`', async () => {
    const client = await routesApp();
    const as = await request(client).get('/routes/commits/abc1234.diff').expect(200);
    expect(as.body).toEqual({ from: 'getCommitAs' });
    const plain = await request(client).get('/routes/commits/abc1234').expect(200);
    expect(plain.body).toEqual({ from: 'getCommit' });
  });
});

describe('a discriminated oneOf whose branches are alike otherwise', () => {
  it.each([
    ['a cat', { petType: 'cat', name: 'Tom', indoor: true }],
    ['a dog', { petType: 'dog', name: 'Rex', breed: 'collie' }],
  ])('%s is taken (not "must match exactly one")', async (_label, body) => {
    await request(await shelterApp())
      .post('/shelter/animals')
      .send(body)
      .expect(201);
  });

  it.each([
    ['names no branch', { petType: 'bird', name: 'Tweety' }],
    ['is missing', { name: 'Tom' }],
  ])('a body whose discriminator %s → 400', async (_label, body) => {
    const res = await request(await shelterApp())
      .post('/shelter/animals')
      .send(body);
    expectError(res, 400, 'bad_request');
  });

  it('a branch used on its own takes a body without the discriminator it does not require', async () => {
    await request(await shelterApp())
      .put('/shelter/cats/1')
      .send({ name: 'Tom' })
      .expect(200);
  });

  it('…but still checks its own schema', async () => {
    const res = await request(await shelterApp())
      .put('/shelter/cats/1')
      .send({ name: 'Tom', indoor: 'yes' });
    expect(expectError(res, 400, 'bad_request').message).toContain('indoor');
  });
});

describe('a parameter whose schema reuses readOnly schemas', () => {
  it.each([['512189'], ['ab:cd']])('/keys/%s → 200', async (key) => {
    await request(await shelterApp())
      .get(`/shelter/keys/${key}`)
      .expect(200);
  });

  it('a value neither of them takes → 400 naming the parameter', async () => {
    const res = await request(await shelterApp()).get('/shelter/keys/AB');
    expect(expectError(res, 400, 'bad_request').message).toContain('key');
  });
});

describe('a required writeOnly property written as an allOf', () => {
  it('a generated answer leaves it out and is valid', async () => {
    // From the contract: /accounts/{id} would be a resource, answering seeded accounts only.
    const { app, logs } = await ownApp(shelter, { resources: NO_RESOURCES });
    const res = await request(app).get('/shelter/accounts/7').expect(200);
    const account = record(res.body);
    expect(account).not.toHaveProperty('secret');
    expect(typeof account.id).toBe('number');
    expect(typeof account.owner).toBe('string');
    expect(errors(logs)).toEqual([]);
  });

  it('an example without it is answered as written', async () => {
    const res = await request(await shelterApp())
      .get('/shelter/accounts/7/summary')
      .expect(200);
    expect(res.headers['x-mock-answer']).toBe('example');
    expect(res.body).toEqual({ id: 7, owner: 'Ada' });
  });
});

describe('answers documented loosely', () => {
  it('`*/*` with no schema beside JSON: Accept application/json gets the JSON object', async () => {
    const { app, logs } = await ownApp(gallery);
    const res = await request(app)
      .get('/gallery/thumbnails/1')
      .set('Accept', 'application/json')
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(isRecord(res.body)).toBe(true);
    expect(errors(logs)).toEqual([]);
  });

  it('…and Accept image/png gets a PNG', async () => {
    const answer = await bytesOf(
      request(await galleryApp())
        .get('/gallery/thumbnails/1')
        .set('Accept', 'image/png'),
    );
    expect(answer).toMatchObject({ status: 200, type: 'image/png' });
    expect(answer.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
  });

  it('a JSON answer with no schema is sent as its example is written', async () => {
    const { app, logs } = await ownApp(gallery);
    const res = await request(app).get('/gallery/captions/1').expect(200);
    expect(res.body).toEqual({ text: 'A cat on a mat', lines: [1, 2] });
    expect(errors(logs)).toEqual([]);
  });
});

describe('an optional request body left out', () => {
  it.each([
    ['its schema inline', '/gallery/drafts'],
    ['its schema a $ref', '/gallery/drafts/named'],
  ])('%s: no body, with or without a Content-Type → 201', async (_label, path) => {
    const client = await galleryApp();
    const bare = await request(client).post(path).expect(201);
    expect(bare.body).toEqual({ saved: true });
    await request(client).post(path).set('Content-Type', 'application/json').expect(201);
  });

  it.each([
    ['its schema inline', '/gallery/drafts'],
    ['its schema a $ref', '/gallery/drafts/named'],
  ])('%s: a body sent is still checked', async (_label, path) => {
    const res = await request(await galleryApp())
      .post(path)
      .send({ heading: 'x' });
    expect(expectError(res, 400, 'bad_request').message).toContain('title');
  });
});
