import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { CONSOLE_CSP } from '../../src/api/admin-console.js';
import { consoleDir } from '../../src/util/paths.js';
import { expectError } from '../helpers/http-matrix.js';
import { createTestApp } from '../helpers/test-app.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

// The console's files come from the build (npm test builds before jest): dist/console.
const ASSETS = [
  ['/__admin/ui', 'text/html; charset=utf-8', 'index.html'],
  ['/__admin/ui/console.js', 'text/javascript; charset=utf-8', 'console.js'],
  ['/__admin/ui/console.css', 'text/css; charset=utf-8', 'console.css'],
] as const;

describe('the QA console at /__admin/ui', () => {
  it.each(ASSETS)('serves %s as %s, with its CSP and nosniff', async (path, type, file) => {
    const { app } = await createTestApp();
    const res = await request(app)
      .get(path)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (chunk: Buffer) => chunks.push(chunk));
        r.on('end', () => {
          done(null, Buffer.concat(chunks));
        });
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).toEqual(readFileSync(join(consoleDir, file)));
  });

  it('has a policy without unsafe-inline that allows only its own script, style and calls', () => {
    expect(CONSOLE_CSP).not.toContain('unsafe');
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
  });

  it('has no inline script or style, and loads nothing from elsewhere', () => {
    const html = readFileSync(join(consoleDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect([...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'data:,',
      'ui/console.css',
      'ui/console.js',
    ]);
  });

  it('serves the shell without the admin token, while the admin API asks for it', async () => {
    const { app } = await createTestApp({ adminToken: 's3cret' });
    for (const [path] of ASSETS) await request(app).get(path).expect(200);
    expectError(await request(app).get('/__admin/scenarios'), 401, 'unauthorized');
    expectError(await request(app).get('/__admin/ui/other.js'), 401, 'unauthorized');
  });

  it('sends /__admin/ui/ to /__admin/ui, where its relative URLs resolve', async () => {
    const { app } = await createTestApp();
    const res = await request(app).get('/__admin/ui/').expect(308);
    expect(res.headers.location).toBe('../ui');
  });

  it('answers HEAD like GET, without a body', async () => {
    const { app } = await createTestApp();
    const res = await request(app).head('/__admin/ui/console.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.text).toBeUndefined();
  });

  it('is not there with noAdmin (--no-admin)', async () => {
    const { app } = await createTestApp({ noAdmin: true });
    for (const [path] of ASSETS) expectError(await request(app).get(path), 404, 'not_found');
  });

  it('answers a JSON 404 saying to build it when its files are missing', async () => {
    const dir = makeTmpDir();
    try {
      const { app } = await createTestApp({ consoleDir: dir });
      const res = await request(app).get('/__admin/ui');
      expect(expectError(res, 404, 'not_found').message).toContain('npm run build');
    } finally {
      removeTmpDir(dir);
    }
  });
});
