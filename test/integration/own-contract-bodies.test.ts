/**
 * Bring your own contract, 3: request bodies. JSON (and `+json`), forms, multipart, text and bytes
 * are read as the contract documents them, typed by its schema (a form carries only text), and
 * validated against it; a body of an undocumented type is a 415 (or the contract's 400), and a
 * required body that is missing is a 400.
 */
import request from 'supertest';
import { expectError } from '../helpers/http-matrix.js';
import { loadOwn, ownApp } from '../helpers/own-contract.js';

const intake = loadOwn('bodies', 'bodies.yaml');

async function app() {
  return (await ownApp(intake)).app;
}

/** A signup form that keeps to the contract, with some fields changed or added. */
function signup(changes: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    email: 'ada@example.com',
    seats: '3',
    newsletter: 'true',
    ...changes,
  };
  return Object.entries(fields)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

describe('JSON', () => {
  it('a body that keeps to the schema is taken', async () => {
    const res = await request(await app())
      .post('/intake/notes')
      .send({ title: 'Groceries', pinned: true })
      .expect(201);
    expect(res.body).toEqual({ received: true });
  });

  it.each([
    ['a required field missing', { pinned: true }, 'title'],
    ['a field of the wrong type', { title: 'x', pinned: 'yes' }, 'pinned'],
    ['a field the schema does not have', { title: 'x', colour: 'red' }, 'colour'],
  ])('%s → 400 naming it', async (_label, body, field) => {
    const res = await request(await app())
      .post('/intake/notes')
      .send(body);
    expect(expectError(res, 400, 'bad_request').message).toContain(field);
  });

  it('a `+json` media type is read as JSON and validated', async () => {
    const event = { specversion: '1.0', type: 'com.example.signup', source: '/web', id: 'e-1' };
    const client = await app();
    await request(client)
      .post('/intake/events')
      .set('Content-Type', 'application/cloudevents+json; charset=utf-8')
      .send(JSON.stringify(event))
      .expect(202);
    const res = await request(client)
      .post('/intake/events')
      .set('Content-Type', 'application/cloudevents+json')
      .send(JSON.stringify({ ...event, id: undefined }));
    expect(expectError(res, 400, 'bad_request').message).toContain('id');
  });
});

describe('application/x-www-form-urlencoded, typed by the schema', () => {
  it('integers and booleans from text', async () => {
    await request(await app())
      .post('/intake/signups')
      .type('form')
      .send(signup())
      .expect(201);
  });

  it('text that is no integer is refused naming its field', async () => {
    const res = await request(await app())
      .post('/intake/signups')
      .type('form')
      .send(signup({ seats: 'three' }));
    expect(expectError(res, 400, 'bad_request').message).toContain('seats');
  });

  it('an integer out of range is refused naming its field', async () => {
    const res = await request(await app())
      .post('/intake/signups')
      .type('form')
      .send(signup({ seats: '51' }));
    expect(expectError(res, 400, 'bad_request').message).toContain('seats');
  });

  it('an array from repeated keys', async () => {
    const client = await app();
    await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&interests=cats&interests=dogs`)
      .expect(201);
    // One value is a list of one, which minItems: 2 refuses.
    const res = await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&interests=cats`);
    expect(expectError(res, 400, 'bad_request').message).toContain('interests');
  });

  it('an array split at commas where the encoding says explode: false, and only there', async () => {
    const client = await app();
    await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&teamIds=1,2,3`)
      .expect(201);
    // `codes` has no encoding: explode is true, and `1,2` is one item, no integer.
    const res = await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&codes=1,2`);
    expect(expectError(res, 400, 'bad_request').message).toContain('codes');
  });

  it('a nested object from `a[b]=c`, typed property by property', async () => {
    const client = await app();
    await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&address[city]=Lyon&address[zip]=69001`)
      .expect(201);
    const res = await request(client)
      .post('/intake/signups')
      .type('form')
      .send(`${signup()}&address[city]=Lyon&address[zip]=north`);
    expect(expectError(res, 400, 'bad_request').message).toContain('zip');
  });

  it('a required field missing → 400 naming it', async () => {
    const res = await request(await app())
      .post('/intake/signups')
      .type('form')
      .send('email=ada@example.com&seats=2');
    expect(expectError(res, 400, 'bad_request').message).toContain('newsletter');
  });
});

describe('multipart/form-data', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('files and typed fields', async () => {
    await request(await app())
      .post('/intake/uploads')
      .attach('cover', PNG, 'cover.png')
      .field('caption', 'Our cat')
      .field('rating', '4')
      .field('public', 'true')
      .expect(201);
  });

  it('several files under one name make an array of binaries', async () => {
    await request(await app())
      .post('/intake/uploads')
      .attach('cover', PNG, 'cover.png')
      .attach('extras', PNG, 'one.png')
      .attach('extras', PNG, 'two.png')
      .field('caption', 'Three cats')
      .expect(201);
  });

  it.each([
    ['a required file missing', 'cover', { caption: 'No cover' }],
    ['a field that is no integer', 'rating', { caption: 'c', rating: 'four' }],
    ['a field too long', 'caption', { caption: 'x'.repeat(41) }],
  ])('%s → 400 naming it', async (_label, field, fields: Record<string, string>) => {
    let req = request(await app()).post('/intake/uploads');
    if (field !== 'cover') req = req.attach('cover', PNG, 'cover.png');
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    expect(expectError(await req, 400, 'bad_request').message).toContain(field);
  });

  it('a file over the 100kb body limit → 413', async () => {
    const res = await request(await app())
      .post('/intake/uploads')
      .attach('cover', Buffer.alloc(150 * 1024, 1), 'huge.png')
      .field('caption', 'Too big');
    expectError(res, 413, 'payload_too_large');
  });
});

describe('the 100kb body limit holds for every kind of body', () => {
  it('a form over it → 413', async () => {
    const res = await request(await app())
      .post('/intake/signups')
      .type('form')
      .send(signup({ email: 'a'.repeat(110 * 1024) }));
    expectError(res, 413, 'payload_too_large');
  });

  it('text over it → 413', async () => {
    const res = await request(await app())
      .post('/intake/messages')
      .set('Content-Type', 'text/plain')
      .send('a'.repeat(110 * 1024));
    expectError(res, 413, 'payload_too_large');
  });
});

describe('text/plain and application/octet-stream', () => {
  it('text is validated as a string', async () => {
    const client = await app();
    await request(client)
      .post('/intake/messages')
      .set('Content-Type', 'text/plain')
      .send('See you at noon')
      .expect(201);
    const res = await request(client)
      .post('/intake/messages')
      .set('Content-Type', 'text/plain')
      .send('This message is much too long');
    expectError(res, 400, 'bad_request');
  });

  it('bytes are taken as they are', async () => {
    await request(await app())
      .put('/intake/blobs/backup.bin')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from([0, 1, 2, 254, 255]))
      .expect(204);
  });
});

describe('a body of a type the operation does not document', () => {
  it('415 unsupported_media_type naming the type it takes', async () => {
    const res = await request(await app())
      .put('/intake/blobs/backup.bin')
      .set('Content-Type', 'text/plain')
      .send('bytes?');
    const { message } = expectError(res, 415, 'unsupported_media_type');
    expect(message).toContain('application/octet-stream');
  });

  it('415 naming every type it takes, where it takes several', async () => {
    const res = await request(await app())
      .post('/intake/comments')
      .set('Content-Type', 'application/xml')
      .send('<comment/>');
    const { message } = expectError(res, 415, 'unsupported_media_type');
    expect(message).toContain('application/json');
    expect(message).toContain('text/plain');
  });

  it('415 where the operation documents it (and 400 too)', async () => {
    const res = await request(await app())
      .post('/intake/events')
      .set('Content-Type', 'application/json')
      .send('{}');
    const { message } = expectError(res, 415, 'unsupported_media_type');
    expect(message).toContain('application/cloudevents+json');
  });

  it('400 where the operation documents 400 and not 415', async () => {
    const res = await request(await app())
      .post('/intake/notes')
      .set('Content-Type', 'text/plain')
      .send('Groceries');
    const { message } = expectError(res, 400, 'unsupported_media_type');
    expect(message).toContain('application/json');
  });
});

describe('a missing body', () => {
  it('is a 400 where the body is required', async () => {
    const res = await request(await app()).post('/intake/notes');
    expect(expectError(res, 400, 'bad_request').message).toContain('required');
  });

  it('is fine where it is not', async () => {
    await request(await app())
      .post('/intake/comments')
      .expect(201);
  });

  it('is fine where it is not, though a Content-Type is sent with no body', async () => {
    await request(await app())
      .post('/intake/comments')
      .set('Content-Type', 'application/json')
      .expect(201);
  });

  it('either of the documented types is taken where the body is optional', async () => {
    const client = await app();
    await request(client).post('/intake/comments').send({ title: 'Nice' }).expect(201);
    await request(client)
      .post('/intake/comments')
      .set('Content-Type', 'text/plain')
      .send('Nice')
      .expect(201);
  });
});
