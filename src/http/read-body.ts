import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from 'body-parser';

/** Reads a request's JSON body as text; undefined when it has none or of another type. */
export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<string | undefined>;

/**
 * body-parser's text reader for `application/json` bodies, on plain node requests: it enforces
 * the size limit, decodes the charset and undoes a Content-Encoding. Its errors (413, 415, 400)
 * carry a `type` that toHttpError turns into Error bodies.
 */
export function createBodyReader(limit: string): BodyReader {
  type NodeMiddleware = (
    req: IncomingMessage,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ) => void;
  const read: NodeMiddleware = bodyParser.text({ type: 'application/json', limit });
  return (req, res) =>
    new Promise((resolve, reject) => {
      read(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          // body-parser's errors are Errors with a `type` and a `status` (see toHttpError).
          reject(error instanceof Error ? error : new Error('the request body could not be read'));
          return;
        }
        const body: unknown = Reflect.get(req, 'body');
        resolve(typeof body === 'string' ? body : undefined);
      });
    });
}
