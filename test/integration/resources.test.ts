import request from 'supertest';
import { isRecord, loadOwn, ownApp } from '../helpers/own-contract.js';
import { SHOP_MODEL } from '../helpers/shop-model.js';

const shop = loadOwn('resources', 'shop.yaml');

/** The value at a path of a JSON answer (undefined where the path leads nowhere). */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let here = value;
  for (const step of path) {
    if (Array.isArray(here) && typeof step === 'number') here = here[step];
    else if (isRecord(here) && typeof step === 'string') here = here[step];
    else return undefined;
  }
  return here;
}

/** A JSON array (the test fails where the value is not one). */
function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`not an array: ${JSON.stringify(value)}`);
  return value;
}

/** One property of each item of a JSON array. */
function pluck(value: unknown, property: string): unknown[] {
  return list(value).map((item) => at(item, property));
}

async function shopApp(options: { itemCount?: number } = {}) {
  return ownApp(shop, { resources: SHOP_MODEL, itemCount: options.itemCount ?? 3 });
}

describe('resources of a contract keep state (issue 30)', () => {
  test('a created item is read back, listed, replaced, merged and deleted', async () => {
    const { app } = await shopApp();
    const created = await request(app).post('/api/users').send({
      username: 'alice',
      role: 'member',
      password: 'secret',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'alice', role: 'member' });
    expect(created.body).not.toHaveProperty('password'); // writeOnly: kept, never answered
    expect(typeof at(created.body, 'createdAt')).toBe('string'); // readOnly: the server's part

    const read = await request(app).get('/api/users/alice');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const listed = await request(app).get('/api/users?limit=50');
    expect(listed.status).toBe(200);
    expect(pluck(at(listed.body, 'data'), 'username')).toContain('alice');
    expect(at(listed.body, 'total')).toBe(list(at(listed.body, 'data')).length);

    const replaced = await request(app)
      .put('/api/users/alice')
      .send({ username: 'alice', role: 'admin' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      username: 'alice',
      role: 'admin',
      createdAt: at(created.body, 'createdAt'),
    });

    const merged = await request(app)
      .patch('/api/users/alice')
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ email: 'alice@example.com' }));
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ role: 'admin', email: 'alice@example.com' });
    const unset = await request(app)
      .patch('/api/users/alice')
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ email: null }));
    expect(unset.body).not.toHaveProperty('email');

    expect((await request(app).delete('/api/users/alice')).status).toBe(204);
    const gone = await request(app).get('/api/users/alice');
    expect(gone.status).toBe(404);
    expect(gone.body).toHaveProperty('title'); // the contract's own 404 body
    const after = await request(app).get('/api/users?limit=50');
    expect(pluck(at(after.body, 'data'), 'username')).not.toContain('alice');
  });

  test('int64 values above 2^53 are stored and answered exactly', async () => {
    const { app } = await shopApp();
    await request(app).post('/api/users').send({ username: 'ida', role: 'member' }).expect(201);
    const created = await request(app)
      .post('/api/users/ida/orders')
      .set('Content-Type', 'application/json')
      .send('{"item":"grain","quantity":9223372036854775807}');
    expect(created.status).toBe(201);
    const read = await request(app).get(`/api/users/ida/orders/${String(at(created.body, 'id'))}`);
    expect(read.text).toContain('"quantity":9223372036854775807');
  });

  test('a valid patch that would make the item break its schema is refused, storing nothing', async () => {
    const { app } = await shopApp();
    await request(app)
      .post('/api/users')
      .send({ username: 'jo', role: 'member', email: 'jo@example.com' })
      .expect(201);
    // UserPatch lets email be null; User does not.
    const patched = await request(app).patch('/api/users/jo').send({ email: null });
    expect(patched.status).toBe(400);
    expect(at(patched.body, 'message')).toMatch(/would no longer keep to its schema/);
    const read = await request(app).get('/api/users/jo');
    expect(read.status).toBe(200);
    expect(at(read.body, 'email')).toBe('jo@example.com');
  });

  test('a client key that is taken is the contract 409, and changes nothing', async () => {
    const { app } = await shopApp();
    await request(app).post('/api/users').send({ username: 'bob', role: 'member' }).expect(201);
    const again = await request(app).post('/api/users').send({ username: 'bob', role: 'admin' });
    expect(again.status).toBe(409);
    expect(at((await request(app).get('/api/users/bob')).body, 'role')).toBe('member');
  });

  test('seeded items: the same seed gives the same bytes; the list pages and filters', async () => {
    const one = await shopApp({ itemCount: 5 });
    const two = await shopApp({ itemCount: 5 });
    const first = await request(one.app).get('/api/users?limit=50');
    const second = await request(two.app).get('/api/users?limit=50');
    expect(first.text).toBe(second.text);
    expect(at(first.body, 'data')).toHaveLength(5);
    const page = await request(one.app).get('/api/users');
    expect(at(page.body, 'data')).toHaveLength(2); // the contract's default limit
    expect(at(page.body, 'total')).toBe(5);
    expect(at(page.body, 'next')).toMatch(/offset=2/);
    const last = await request(one.app).get('/api/users?offset=4');
    expect(at(last.body, 'data')).toHaveLength(1);
    expect(last.body).not.toHaveProperty('next');
    const admins = await request(one.app).get('/api/users?role=admin&limit=50');
    for (const role of pluck(at(admins.body, 'data'), 'role')) expect(role).toBe('admin');
    expect(at(admins.body, 'total')).toBe(
      pluck(at(first.body, 'data'), 'role').filter((role) => role === 'admin').length,
    );
  });

  test('nested items belong to their parent; an unknown parent is a 404', async () => {
    const { app } = await shopApp();
    await request(app).post('/api/users').send({ username: 'carol', role: 'member' }).expect(201);
    await request(app).post('/api/users').send({ username: 'dave', role: 'member' }).expect(201);
    const order = await request(app).post('/api/users/carol/orders').send({ item: 'tea' });
    expect(order.status).toBe(201);
    expect(isRecord(order.body) && Object.keys(order.body)).toEqual(['id']); // the contract answers the key alone
    expect(order.headers.location).toBe(`/api/users/carol/orders/${String(at(order.body, 'id'))}`);
    const read = await request(app).get(`/api/users/carol/orders/${String(at(order.body, 'id'))}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id: at(order.body, 'id'), item: 'tea', quantity: 1 }); // default applied
    expect(
      (await request(app).get(`/api/users/dave/orders/${String(at(order.body, 'id'))}`)).status,
    ).toBe(404);
    expect((await request(app).get('/api/users/dave/orders')).body).toEqual([]);
    expect((await request(app).get('/api/users/nobody/orders')).status).toBe(404);
    expect((await request(app).post('/api/users/nobody/orders').send({ item: 'x' })).status).toBe(
      404,
    );
  });

  test('integer keys are counted per resource after the seeded ones; pages by number', async () => {
    const { app } = await shopApp({ itemCount: 3 });
    await request(app).post('/api/users').send({ username: 'erin', role: 'member' }).expect(201);
    const ids: number[] = [];
    for (const item of ['a', 'b', 'c']) {
      const created = await request(app).post('/api/users/erin/orders').send({ item });
      ids.push(Number(at(created.body, 'id')));
    }
    expect(ids[1]).toBe((ids[0] ?? 0) + 1);
    expect(ids[2]).toBe((ids[0] ?? 0) + 2);
    const second = await request(app).get('/api/users/erin/orders?per_page=2&page=2');
    expect(pluck(second.body, 'item')).toEqual(['c']);
  });

  test('wrapped bodies and answers (RealWorld style); a made string key', async () => {
    const { app } = await shopApp();
    const created = await request(app)
      .post('/api/articles')
      .send({ article: { title: 'Hello' } });
    expect(created.status).toBe(201);
    expect(at(created.body, 'article', 'title')).toBe('Hello');
    const slug = String(at(created.body, 'article', 'slug'));
    const read = await request(app).get(`/api/articles/${encodeURIComponent(slug)}`);
    expect(read.body).toEqual(created.body);
  });

  test('sessions do not see each other; reset restores the seed', async () => {
    const { app } = await shopApp();
    await request(app)
      .post('/api/users')
      .set('X-Mock-Session', 'a')
      .send({ username: 'frank', role: 'member' })
      .expect(201);
    expect((await request(app).get('/api/users/frank').set('X-Mock-Session', 'b')).status).toBe(
      404,
    );
    expect((await request(app).get('/api/users/frank').set('X-Mock-Session', 'a')).status).toBe(
      200,
    );
    const before = await request(app).get('/api/users?limit=50');
    await request(app).post('/api/users').send({ username: 'gina', role: 'member' }).expect(201);
    await request(app)
      .delete(`/api/users/${String(at(before.body, 'data', 0, 'username'))}`)
      .expect(204);
    await request(app).post('/__admin/reset').expect(204);
    const after = await request(app).get('/api/users?limit=50');
    expect(after.text).toBe(before.text);
  });

  test('a scenario forcing a status answers from the contract and changes nothing', async () => {
    const { app } = await shopApp();
    const forced = await request(app)
      .post('/api/users')
      .set('Prefer', 'code=409')
      .send({ username: 'hank', role: 'member' });
    expect(forced.status).toBe(409);
    expect((await request(app).get('/api/users/hank')).status).toBe(404);
  });
});

describe('GET /__admin/resources shows what was inferred and what a session holds', () => {
  test('resources with keys, operations and counts; stateless operations; items', async () => {
    const { app } = await shopApp({ itemCount: 4 });
    await request(app)
      .post('/api/users')
      .set('X-Mock-Session', 's1')
      .send({ username: 'ivy', role: 'admin' })
      .expect(201);
    const listed = await request(app).get('/__admin/resources').set('X-Mock-Session', 's1');
    expect(listed.status).toBe(200);
    const names = pluck(at(listed.body, 'resources'), 'name');
    expect(names).toEqual(['users', 'users.orders', 'articles']);
    const users = at(listed.body, 'resources', 0);
    expect(users).toMatchObject({
      key: { property: 'username', kind: 'string', fromClient: 'required' },
      items: 5,
      parent: null,
    });
    expect(pluck(at(users, 'operations'), 'role')).toEqual([
      'list',
      'create',
      'read',
      'replace',
      'update',
      'delete',
    ]);
    expect(at(listed.body, 'resources', 1, 'items')).toBeNull();
    const defaultSession = await request(app).get('/__admin/resources');
    expect(at(defaultSession.body, 'resources', 0, 'items')).toBe(4);

    const items = await request(app)
      .get('/__admin/resources/users/items')
      .set('X-Mock-Session', 's1');
    expect(items.status).toBe(200);
    expect(pluck(at(items.body, 'items'), 'username')).toContain('ivy');
    const nested = await request(app).get('/__admin/resources/users.orders/items');
    expect(nested.status).toBe(400);
    expect(at(nested.body, 'code')).toBe('bad_request');
    const unknown = await request(app).get('/__admin/resources/nope/items');
    expect(unknown.status).toBe(404);

    // Reads: a session that is not live shows the seeded items, and is not created by them.
    const unseen = await request(app).get('/__admin/resources').set('X-Mock-Session', 'unseen');
    expect(at(unseen.body, 'resources', 0, 'items')).toBe(4);
    await request(app).get('/__admin/resources/users/items').set('X-Mock-Session', 'unseen');
    const sessions = await request(app).get('/__admin/sessions');
    expect(pluck(at(sessions.body, 'sessions'), 'id')).toEqual([null, 's1']);
  });
});

describe('bodies a resource stores, and those the contract answers', () => {
  test('a form body is stored like JSON; an XML answer comes from the contract', async () => {
    const bookshop = loadOwn('..', '..', '..', 'examples', 'contracts', 'bookshop', 'openapi.yaml');
    const { app } = await ownApp(bookshop);
    const key = { 'X-API-Key': 'any-key' };
    const created = await request(app)
      .post('/api/books')
      .set(key)
      .type('form')
      .send('isbn=9780141439518&title=Emma&price=7.5');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ isbn: '9780141439518', title: 'Emma', price: 7.5 });
    const read = await request(app).get('/api/books/9780141439518').set(key);
    expect(read.body).toEqual(created.body);
    const xml = await request(app).get('/api/books').set(key).set('Accept', 'application/xml');
    expect(xml.status).toBe(200);
    expect(xml.headers['x-mock-answer']).toBeDefined(); // from the contract, not the state
  });
});
