import { connect, type Socket } from 'node:net';

/** A raw TCP connection to a mock, and everything it has received so far. */
export interface RawConnection {
  readonly socket: Socket;
  /** Bytes received so far, as latin1 text (headers and JSON bodies here are ASCII). */
  received(): string;
  /** Resolves when the server has closed the connection (or it failed). */
  readonly closed: Promise<void>;
}

/** Opens a connection to 127.0.0.1:port; `read: false` leaves it paused, taking nothing. */
export function openRaw(port: number, { read = true } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const closed = new Promise<void>((done) => {
      socket.once('close', () => {
        done();
      });
    });
    socket.on('error', () => undefined); // a reset ends the connection like a close
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    if (!read) socket.pause();
    socket.once('connect', () => {
      resolve({ socket, received: () => text, closed });
    });
    socket.once('error', reject);
  });
}

/** Resolves true once `check()` holds, false if it still does not after `limitMs`. */
export async function eventually(check: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Resolves true when the promise settles within `limitMs`, false otherwise. */
export async function within(promise: Promise<unknown>, limitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, limitMs);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The status line and the JSON body of the one answer in `raw`. */
export function answerOf(raw: string): { statusLine: string; headers: string; body: unknown } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end);
  const statusLine = head.split('\r\n')[0] ?? '';
  const body: unknown = JSON.parse(raw.slice(end + 4));
  return { statusLine, headers: head, body };
}

/** How many answers with this status line start `raw` holds. */
export function countAnswers(raw: string, status: number): number {
  return raw.split(`HTTP/1.1 ${status} `).length - 1;
}
