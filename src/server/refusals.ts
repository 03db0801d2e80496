import type { RequestListener } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError } from '../http/http-error.js';
import { MAX_HEADER_BYTES } from '../http/limits.js';
import { JSON_CONTENT_TYPE, sendJsonText } from '../http/send-json.js';

/** What Node's HTTP parser refuses before any request exists, as a status and Error body. */
export function parserRefusal(code: unknown): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(
        431,
        'headers_too_large',
        `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'request_timeout', 'The request was not received in time.');
    default:
      return new HttpError(400, 'bad_request', 'The request is not valid HTTP.');
  }
}

/** CONNECT asks for a tunnel: no resource here takes any method that way (an empty Allow). */
export function connectRefusal(): HttpError {
  return new HttpError(
    405,
    'method_not_allowed',
    'CONNECT is not served: this is a mock of the Pet Store API, not a proxy.',
    { Allow: '' },
  );
}

/** RFC 9112 (3.2): an HTTP/1.1 request without Host is answered 400. */
function missingHost(): HttpError {
  return new HttpError(400, 'bad_request', 'An HTTP/1.1 request must carry a Host header.');
}

/** The whole answer of an error on a bare socket, closing the connection after it. */
function rawAnswer(error: HttpError): string {
  const body = JSON.stringify(error.toBody());
  const headers = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
    headers.join('') +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Writes an error as the last answer on a socket no request listener owns (the parser refused
 * what came, or it asked for a tunnel), then closes it: at once once the client closes its side,
 * and after `lingerMs` at the latest, since the server's sockets allow half-open connections.
 */
export function answerOnSocket(socket: Duplex, error: HttpError, lingerMs: number): void {
  // A CONNECT's socket has no error listener left: a reset must not become an uncaught error.
  socket.on('error', () => socket.destroy());
  socket.end(rawAnswer(error));
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => {
    clearTimeout(timer);
  });
}

/**
 * Refuses HTTP/1.1 requests without Host with the Error body; the rest go to `next`. (Node's own
 * check, requireHostHeader, answers an empty 400.)
 */
export function requireHost(next: RequestListener): RequestListener {
  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      const error = missingHost();
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Connection', 'close');
      sendJsonText(res, error.status, JSON.stringify(error.toBody()));
      return;
    }
    next(req, res);
  };
}
