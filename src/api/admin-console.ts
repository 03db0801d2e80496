import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error.js';
import { pathOf } from '../http/request-parts.js';

/** Where the QA console is served, below the admin API's path. */
export const CONSOLE_PATH = '/ui';

/**
 * The console's policy: its own script and style only (nothing inline, nothing from elsewhere),
 * calls to this origin only, and no framing, forms or base URL to hijack.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The console's files in the build (scripts/build-console.js), by the path they are served at. */
const ASSETS: ReadonlyMap<string, { file: string; type: string }> = new Map([
  ['/', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['/console.js', { file: 'console.js', type: 'text/javascript; charset=utf-8' }],
  ['/console.css', { file: 'console.css', type: 'text/css; charset=utf-8' }],
]);

/**
 * The QA console's shell (HTML, script, style) from `dir`, for mounting at /__admin/ui before
 * the admin API: the shell holds no data and needs no token; every call it makes sends one.
 * Files are read on first use and kept.
 */
export function serveConsole(dir: string): RequestHandler {
  const files = new Map<string, Promise<Buffer>>();
  const read = (file: string): Promise<Buffer> => {
    let content = files.get(file);
    if (!content) {
      content = readFile(join(dir, file));
      // A failed read is not kept: a build made after the start is then served.
      content.catch(() => files.delete(file));
      files.set(file, content);
    }
    return content;
  };
  return function serveConsole(req, res, next) {
    const asset = ASSETS.get(req.path);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !asset) {
      next();
      return;
    }
    // The page's relative URLs (ui/console.js, and the admin API at ./) need it without a slash.
    const path = pathOf(req.originalUrl);
    if (path.endsWith('/')) {
      res.redirect(308, `../ui${req.originalUrl.slice(path.length)}`);
      return;
    }
    read(asset.file).then(
      (body) => {
        res.set({
          'Content-Type': asset.type,
          'Content-Security-Policy': CONSOLE_CSP,
          'Referrer-Policy': 'no-referrer',
          'Cache-Control': 'no-cache',
        });
        res.status(200).send(body);
      },
      () => {
        next(new HttpError(404, 'not_found', 'The QA console is not built: run `npm run build`.'));
      },
    );
  };
}
