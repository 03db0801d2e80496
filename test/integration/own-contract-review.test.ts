/**
 * Bring your own contract, 9: what the review of the contract engine found, pinned. Multipart
 * bodies sent chunked, in files and in JSON parts; security schemes and vendor extensions checked
 * at load; null examples; forced errors, their examples and their default words; HEAD; XML
 * request bodies; label-style values with `$`; deprecation of another contract's operation; JSON
 * preferred where a client takes anything; only a range of errors documented; a malformed
 * `$ref`; and the Pet Store's order of checks on a body and an Accept it cannot answer.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import request from 'supertest';
import { expectError } from '../helpers/http-matrix.js';
import {
  errors,
  fileErrorOf,
  loadOwn,
  ownApp,
  ownPath,
  placeOf,
  record,
} from '../helpers/own-contract.js';
import { AUTH, createTestApp } from '../helpers/test-app.js';

const bodies = loadOwn('review', 'bodies.yaml');
const answers = loadOwn('review', 'answers.yaml');
const routes = loadOwn('review', 'routes.yaml');
const parcels = loadOwn('review', 'errors.yaml');

/** A multipart body of parts, each a field or a file, with the boundary it is written with. */
interface Part {
  readonly name: string;
  readonly value: string | Buffer;
  /** A file's name and type; a field has none. */
  readonly file?: { readonly filename: string; readonly type: string };
}

const BOUNDARY = 'review-boundary-7e3f';

function multipart(parts: readonly Part[]): Buffer {
  const pieces = parts.flatMap(({ name, value, file }) => {
    const disposition = `form-data; name="${name}"${file ? `; filename="${file.filename}"` : ''}`;
    const head = [
      `--${BOUNDARY}`,
      `Content-Disposition: ${disposition}`,
      ...(file ? [`Content-Type: ${file.type}`] : []),
      '',
      '',
    ].join('\r\n');
    return [
      Buffer.from(head),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    ];
  });
  return Buffer.concat([...pieces, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

/** A server on a free port for one test, closed after it. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    ),
  );
});

async function listen(app: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * POSTs `chunks` one after another with `Transfer-Encoding: chunked` (no Content-Length): the
 * answer's status and text. Writes the server no longer reads (it answered) fail unseen.
 */
function postChunked(
  port: number,
  path: string,
  chunks: readonly Buffer[],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Transfer-Encoding': 'chunked',
        },
      },
      (res) => {
        answered = true;
        const received: Buffer[] = [];
        res.on('data', (chunk: Buffer) => received.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(received).toString('utf8') });
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const writeAll = async () => {
      for (const chunk of chunks) {
        if (answered || req.destroyed) return;
        await new Promise<void>((done) => {
          req.write(chunk, () => {
            done();
          });
        });
        // Each its own chunk on the wire, as a client streaming a file sends it.
        await new Promise((done) => setImmediate(done));
      }
      req.end();
    };
    void writeAll();
  });
}

/** `bytes` cut into pieces of `size`. */
function piecesOf(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** A file part of `size` bytes for the `files` field. */
function pngPart(filename: string, size: number): Part {
  return { name: 'files', value: Buffer.alloc(size, 7), file: { filename, type: 'image/png' } };
}

describe('multipart bodies (read-body.ts)', () => {
  it('sent chunked, each part within the limit but not their sum → 413; the server goes on', async () => {
    const port = await listen((await ownApp(bodies)).app);
    // multer bounds each part (100 kB): three of 40 kB pass it, their sum does not.
    const body = multipart([
      { name: 'caption', value: 'big' },
      ...[1, 2, 3].map((n) => pngPart(`${String(n)}.png`, 40 * 1024)),
    ]);
    const pieces = piecesOf(body, 16 * 1024);
    expect(pieces.length).toBeGreaterThan(5);
    const res = await postChunked(port, '/albums/albums', pieces);
    expect(res.status).toBe(413);
    expect(record(JSON.parse(res.text)).code).toBe('payload_too_large');
    await request(`http://127.0.0.1:${String(port)}`)
      .post('/albums/albums')
      .attach('files', PNG, 'one.png')
      .attach('files', PNG, 'two.png')
      .expect(201);
  });

  it('sent chunked within the limit → 201: only what is over it is refused', async () => {
    const port = await listen((await ownApp(bodies)).app);
    const body = multipart([pngPart('a.png', 20 * 1024), pngPart('b.png', 20 * 1024)]);
    const res = await postChunked(port, '/albums/albums', piecesOf(body, 4 * 1024));
    expect(res.status).toBe(201);
  });

  it('one file sent to an array-of-files field → 201', async () => {
    const res = await request((await ownApp(bodies)).app)
      .post('/albums/albums')
      .attach('files', PNG, 'one.png')
      .expect(201);
    expect(res.body).toEqual({ created: true });
  });

  it('a part sent as an application/json file to an object field is read as JSON → 201', async () => {
    await request((await ownApp(bodies)).app)
      .post('/albums/albums')
      .attach('files', PNG, 'one.png')
      .attach('files', PNG, 'two.png')
      .attach('metadata', Buffer.from(JSON.stringify({ title: 'Summer' })), {
        filename: 'metadata.json',
        contentType: 'application/json',
      })
      .expect(201);
  });

  it.each([
    ['invalid JSON', '{"title": '],
    ['JSON the schema refuses', JSON.stringify({ title: 3 })],
  ])('a JSON part holding %s → 400 naming the field', async (_label, text) => {
    const res = await request((await ownApp(bodies)).app)
      .post('/albums/albums')
      .attach('files', PNG, 'one.png')
      .attach('files', PNG, 'two.png')
      .attach('metadata', Buffer.from(text), {
        filename: 'metadata.json',
        contentType: 'application/json',
      });
    expect(expectError(res, 400, 'bad_request').message).toContain('metadata');
  });
});

describe('checked at load', () => {
  it('security naming a scheme not declared (a case apart) is refused at its line', () => {
    const path = ownPath('review', 'security.yaml');
    const error = fileErrorOf(() => loadOwn('review', 'security.yaml'));
    expect(error.file).toBe(path);
    expect(error.message).toContain('BearerAuth');
    expect(error.position?.line).toBe(placeOf(path, 'BearerAuth').line);
  });

  it('`x-database: { schema: public }`, at the top and in an operation, loads and answers', async () => {
    const ledger = loadOwn('review', 'extensions.yaml');
    const res = await request((await ownApp(ledger)).app)
      .get('/ledger/entries')
      .expect(200);
    expect(res.body).toEqual([1, 2]);
  });

  it('a $ref that is not valid percent-encoding, to no file, names the contract and its line', () => {
    const path = ownPath('review', 'bad-ref', 'openapi.yaml');
    const error = fileErrorOf(() => loadOwn('review', 'bad-ref', 'openapi.yaml'));
    expect(error.file).toBe(path);
    expect(error.position?.line).toBe(placeOf(path, 'resp%.yaml').line);
    expect(error.reason).toContain('resp%.yaml');
    expect(error.message).not.toMatch(/URI malformed/i);
  });
});

describe('a null example whose schema takes null (send-answer.ts)', () => {
  it.each([
    ['3.0, `nullable: true`', answers],
    ["3.1, `type: [object, 'null']`", loadOwn('review', 'answers-3.1.yaml')],
  ])('%s → 200, the text `null` as application/json', async (_label, contract) => {
    const { app, logs } = await ownApp(contract);
    const res = await request(app).get('/notes/drafts/latest');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('null');
    expect(errors(logs)).toEqual([]);
  });
});

describe('forced errors', () => {
  it("brokenExamples 'serve': a forced 404 whose example breaks its schema is sent as written", async () => {
    const { app } = await ownApp(parcels, { brokenExamples: 'serve' });
    const res = await request(app).get('/parcels/parcels/1/route').set('Prefer', 'code=404');
    expect(res.status).toBe(404);
    expect(res.headers['x-mock-answer']).toBe('example; breaks-schema');
    expect(res.body).toEqual({ reason: 'lost in transit', retryable: 'no' });
  });

  it('by default, the same is answered with generated data that keeps to the schema', async () => {
    const { app } = await ownApp(parcels);
    const res = await request(app).get('/parcels/parcels/1/route').set('Prefer', 'code=404');
    expect(res.status).toBe(404);
    expect(res.headers['x-mock-answer']).toBe('generated; example-breaks-schema');
    expect(parcels.checkSchema('Missing')(res.body)).toEqual([]);
  });

  it("the Pet Store's getPet: 404 in the Pet Store's words", async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets/1').set(AUTH).set('Prefer', 'code=404');
    expect(expectError(res, 404, 'not_found').message).toBe('The requested animal does not exist.');
  });

  it("another contract's operation with the Error shape: 404 in words for any resource", async () => {
    const { app } = await ownApp(parcels);
    const res = await request(app).get('/parcels/parcels/1').set('Prefer', 'code=404');
    expect(expectError(res, 404, 'not_found').message).toBe(
      'The requested resource does not exist.',
    );
  });
});

describe('HEAD (operation-index.ts, answerHeadAsGet)', () => {
  it('a path documenting GET and HEAD: HEAD is its own operation → 204', async () => {
    const res = await request((await ownApp(routes)).app).head('/files/both');
    expect(res.status).toBe(204);
  });

  it('…and its GET is still the GET → 200 with JSON', async () => {
    const res = await request((await ownApp(routes)).app)
      .get('/files/both')
      .expect(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('a path documenting only HEAD → 204, not 405', async () => {
    const res = await request((await ownApp(routes)).app).head('/files/head-only');
    expect(res.status).toBe(204);
  });

  it('a path documenting only GET: HEAD is answered as the GET → 200, no body', async () => {
    const res = await request((await ownApp(routes)).app).head('/files/get-only');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBeFalsy();
  });
});

describe('a request body documented in XML beside JSON (validator-view.ts)', () => {
  it('XML → 201, not 400 "must be object"', async () => {
    const res = await request((await ownApp(bodies)).app)
      .post('/albums/things')
      .set('Content-Type', 'application/xml')
      .send('<thing><id>1</id></thing>');
    expect(res.status).toBe(201);
  });

  it('JSON still checked against its schema → 400 naming the field', async () => {
    const res = await request((await ownApp(bodies)).app)
      .post('/albums/things')
      .send({ id: 'one' });
    expect(expectError(res, 400, 'bad_request').message).toContain('id');
  });
});

describe('label-style path values with `$` (readStyledPath)', () => {
  it.each([
    ["$'", ".a$'b"],
    ['$&', '.a$&b'],
    ['$` and $$', '.a$`b$$c'],
    ['encoded', '.a%24%27b'],
  ])('%s → matched to the operation, 200', async (_label, value) => {
    const res = await request((await ownApp(routes)).app).get(`/files/tags/${value}/items`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });
});

describe('deprecation (deprecation.ts)', () => {
  it("another contract's deprecated operation: Deprecation, but no Sunset nor Link", async () => {
    const res = await request((await ownApp(routes)).app)
      .get('/files/legacy')
      .expect(200);
    expect(res.headers.deprecation).toBeDefined();
    expect(res.headers.sunset).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
  });

  it("the Pet Store's getPet keeps all three", async () => {
    const res = await request((await createTestApp()).app)
      .get('/v1/pets/1')
      .set(AUTH)
      .expect(200);
    expect(res.headers.deprecation).toBeDefined();
    expect(res.headers.sunset).toBeDefined();
    expect(String(res.headers.link)).toContain('/v1/pets');
  });
});

describe('XML written before JSON (contract-answers.ts)', () => {
  it.each([
    ['no Accept', undefined],
    ['Accept: */*', '*/*'],
  ])('%s → JSON', async (_label, accept) => {
    let req = request((await ownApp(answers)).app).get('/notes/notes/1');
    if (accept !== undefined) req = req.set('Accept', accept);
    const res = await req.expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ title: 'Groceries' });
  });

  it('Accept: application/xml → XML', async () => {
    const res = await request((await ownApp(answers)).app)
      .get('/notes/notes/1')
      .set('Accept', 'application/xml')
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toBe('<note><title>Groceries</title></note>');
  });
});

describe('an operation documenting only `4XX`', () => {
  it('→ 400 with a body its schema takes, not an undocumented 204', async () => {
    const res = await request((await ownApp(answers)).app).post('/notes/notes/1/lock');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(answers.checkSchema('Problem')(res.body)).toEqual([]);
  });
});

describe("the Pet Store's order: Accept, body type and charset on POST /v1/pets", () => {
  it('Accept: text/html and no body → 406', async () => {
    const res = await request((await createTestApp()).app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Accept', 'text/html');
    expectError(res, 406, 'not_acceptable');
  });

  it('Accept: text/html and a text/plain body → 406', async () => {
    const res = await request((await createTestApp()).app)
      .post('/v1/pets')
      .set(AUTH)
      .set({ Accept: 'text/html', 'Content-Type': 'text/plain' })
      .send('Rex');
    expectError(res, 406, 'not_acceptable');
  });

  it('a text/plain body in latin1 → 400 unsupported_media_type naming application/json', async () => {
    const res = await request((await createTestApp()).app)
      .post('/v1/pets')
      .set(AUTH)
      .set('Content-Type', 'text/plain; charset=latin1')
      .send('Rex');
    expect(expectError(res, 400, 'unsupported_media_type').message).toContain('application/json');
  });
});
