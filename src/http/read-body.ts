import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads a request's JSON body as text; undefined when it has none or of another type. */
export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<string | undefined>;

type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * body-parser's text reader for `application/json` bodies, on plain node requests: it enforces
 * the size limit, decodes the charset and undoes a Content-Encoding. Its errors (413, 415, 400)
 * carry a `type` that toHttpError turns into Error bodies. It is imported on the first request
 * with a body (~60 ms of start-up that a GET never needs).
 */
export function createBodyReader(limit: string): BodyReader {
  let reader: Promise<NodeMiddleware> | undefined;
  return async (req, res) => {
    reader ??= import('body-parser').then(({ default: bodyParser }) =>
      bodyParser.text({ type: 'application/json', limit }),
    );
    let read: NodeMiddleware;
    try {
      read = await reader;
    } catch (error) {
      reader = undefined; // the next body retries the import
      throw error;
    }
    return new Promise((resolve, reject) => {
      read(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          // body-parser's errors are Errors with a `type` and a `status` (see toHttpError).
          reject(error instanceof Error ? error : new Error('the request body could not be read'));
          return;
        }
        // body-parser leaves the text in req.body, a property node's type does not have.
        resolve('body' in req && typeof req.body === 'string' ? req.body : undefined);
      });
    });
  };
}
