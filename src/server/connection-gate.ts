import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { ConnectionLimits } from '../config/settings.js';

/** The budgets the gate holds connections to. */
export type GateLimits = Pick<
  ConnectionLimits,
  'maxQueuedBytes' | 'maxQueuedTotal' | 'maxPipelined' | 'writeTimeout'
>;

/** A request listener that hands requests on only as fast as clients take their answers. */
export interface ConnectionGate {
  /** The listener to give node:http: the app behind the gate. */
  readonly listener: RequestListener;
  /**
   * True when an error written raw on this socket now would answer the request being received,
   * not land before or inside the answers of earlier ones.
   */
  mayAnswerRaw(socket: Duplex): boolean;
  /** Stops the sweep. */
  close(): void;
}

/**
 * While requests wait for the total budget, a connection that has not taken its untaken bytes
 * within `stallMs`, or within the time they take at `minTakeBytesPerS` if longer, is closed: a
 * client that reads takes them quickly once the server is not building other answers, which it
 * is not while requests wait. (Node says nothing of a write taken in part: an answer counts as
 * taken once all of it is.)
 */
export interface PressureRule {
  readonly stallMs: number;
  readonly minTakeBytesPerS: number;
}

export const PRESSURE_RULE: PressureRule = Object.freeze({
  stallMs: 2000,
  minTakeBytesPerS: 1024 * 1024,
});

interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/** One connection: its requests handed to the app, those waiting, and its untaken answer bytes. */
interface Connection {
  readonly socket: Duplex;
  /** Handed to the app, answer not yet taken by the client (finished); oldest first. */
  readonly inFlight: Exchange[];
  /** Parsed but not handed on yet. */
  readonly waiting: Exchange[];
  /** Untaken answer bytes, as last measured; part of the total. */
  held: number;
  /** When (performance.now()) the client last took some of them, or they began. */
  progressAt: number;
  /** The answer whose finish measures again and hands on the waiting requests. */
  watched: ServerResponse | undefined;
  /** Closed by the gate, or by the client. */
  closed: boolean;
}

/** Forgets the answers the client has taken; they finish in order. */
function settle(connection: Connection): void {
  while (connection.inFlight[0]?.res.writableFinished === true) connection.inFlight.shift();
}

/**
 * Answer bytes written for a connection that the kernel has not taken: those in the socket, and
 * those of answers queued behind the one that holds it (Node keeps them in the response).
 */
function untakenBytes(connection: Connection): number {
  let bytes = connection.socket.writableLength;
  for (const { res } of connection.inFlight) if (res.socket === null) bytes += res.writableLength;
  return bytes;
}

/** The connection's own turn: its last answer is complete and its untaken bytes within budget. */
function ownTurn(connection: Connection, maxQueuedBytes: number): boolean {
  const last = connection.inFlight.at(-1);
  if (last === undefined) return true;
  return last.res.writableEnded && untakenBytes(connection) <= maxQueuedBytes;
}

/**
 * Node's HTTP server parses every request a client pipelines and hands each to the listener at
 * once, whether or not the client reads the answers: one connection that never read made the
 * process build answers until it died. The gate hands each connection's requests on one after
 * another (answers go out in that order anyway), the next only once the last answer is complete
 * and the connection's untaken bytes are within `maxQueuedBytes`, and no request at all while
 * the untaken bytes of all connections are over `maxQueuedTotal`; a socket whose requests wait
 * is not read. The parser reads a whole chunk at once, so pausing alone cannot bound the requests
 * already parsed: a connection with more than `maxPipelined` unanswered is closed. A connection
 * whose client takes none of its answer bytes for `writeTimeout` is closed, and one that takes
 * none in time (PressureRule) while other requests wait for the total.
 */
export function createConnectionGate(
  app: RequestListener,
  limits: GateLimits,
  logger: Logger,
  pressure: PressureRule = PRESSURE_RULE,
): ConnectionGate {
  const connections = new Map<Duplex, Connection>();
  /** Connections whose next request waits for the total, in arrival order. */
  const blocked = new Set<Connection>();
  let total = 0;
  /**
   * The answer last handed on from `blocked`, until it is written: answers are built
   * asynchronously, so the total cannot tell yet what it will add.
   */
  let building: { res: ServerResponse; since: number } | undefined;
  let unblockQueued = false;

  /** Requests wait: the total is over budget, or a waiting one's answer is being built. */
  const totalFull = (): boolean =>
    total > limits.maxQueuedTotal || (building !== undefined && !building.res.writableEnded);

  /** Takes a connection's bytes out of the total; what it still sends is dropped. */
  const release = (connection: Connection): void => {
    connection.closed = true;
    total -= connection.held;
    connection.held = 0;
    connection.waiting.length = 0;
    blocked.delete(connection);
  };

  const close = (connection: Connection, why: string): void => {
    if (connection.closed) return;
    logger.warn({ untakenBytes: connection.held }, `connection closed: ${why}`);
    release(connection);
    connection.socket.destroy();
    unblock();
  };

  const handOn = (connection: Connection, exchange: Exchange): void => {
    connection.inFlight.push(exchange);
    // Emitted once the whole answer is in the socket (or queued behind the one holding it).
    exchange.res.once('prefinish', () => {
      measure(connection);
    });
    // Once the chunk being parsed is done: a connection closed for what follows in it (too many
    // requests ahead) then costs no answer.
    process.nextTick(() => {
      if (!connection.closed) app(exchange.req, exchange.res);
    });
  };

  /** Measures the connection's untaken bytes again; the total may now let others go. */
  const measure = (connection: Connection): void => {
    if (connection.closed) return;
    settle(connection);
    const held = untakenBytes(connection);
    if (held < connection.held || connection.held === 0) connection.progressAt = performance.now();
    total += held - connection.held;
    connection.held = held;
    if (held > 0) watch(connection);
    unblock();
  };

  /**
   * Hands on the next request of the blocked connections, in arrival order, one answer at a
   * time while the total allows; once the events at hand are handled, so that no request reaches
   * the app from inside another one's res.end(), nor goes to a client whose close is at hand.
   */
  const unblock = (): void => {
    if (unblockQueued || blocked.size === 0) return;
    unblockQueued = true;
    setImmediate(() => {
      unblockQueued = false;
      for (const connection of blocked) {
        if (totalFull()) return;
        blocked.delete(connection);
        settle(connection);
        const next = connection.waiting[0];
        if (connection.closed || next === undefined) continue;
        if (!ownTurn(connection, limits.maxQueuedBytes)) {
          watch(connection); // its own answers first; it queues again then
          continue;
        }
        connection.waiting.shift();
        building = { res: next.res, since: performance.now() };
        handOn(connection, next);
        afterHandOn(connection);
      }
    });
  };

  /** Reads the socket again once nothing waits; otherwise waits for the newest answer. */
  const afterHandOn = (connection: Connection): void => {
    if (connection.waiting.length === 0) connection.socket.resume();
    else watch(connection);
  };

  /** Hands on the waiting requests whose turn it is, or queues the connection for the total. */
  const pump = (connection: Connection): void => {
    if (connection.closed) return;
    settle(connection);
    while (connection.waiting.length > 0 && ownTurn(connection, limits.maxQueuedBytes)) {
      if (blocked.size > 0 || totalFull()) {
        blocked.add(connection);
        unblock();
        break;
      }
      const next = connection.waiting.shift();
      if (next) handOn(connection, next);
    }
    afterHandOn(connection);
  };

  /** Once the newest answer is taken, everything before it is too: measure and hand on then. */
  const watch = (connection: Connection): void => {
    const last = connection.inFlight.at(-1)?.res;
    if (last === undefined || connection.watched === last) return;
    connection.watched = last;
    last.once('finish', () => {
      if (connection.watched === last) connection.watched = undefined;
      measure(connection);
      pump(connection);
    });
  };

  const connectionOf = (socket: Duplex): Connection => {
    const known = connections.get(socket);
    if (known) return known;
    const connection: Connection = {
      socket,
      inFlight: [],
      waiting: [],
      held: 0,
      progressAt: 0,
      watched: undefined,
      closed: false,
    };
    connections.set(socket, connection);
    // Kept until then: requests parsed from the chunk being read still arrive after a close.
    socket.once('close', () => {
      release(connection);
      connections.delete(socket);
      unblock();
    });
    socket.on('drain', () => {
      measure(connection);
    });
    // Node resumes a socket it paused itself once its own buffers drain: keep ours paused.
    socket.on('resume', () => {
      if (connection.waiting.length > 0) socket.pause();
    });
    return connection;
  };

  const listener: RequestListener = (req, res) => {
    const connection = connectionOf(req.socket);
    if (connection.closed) return;
    settle(connection);
    if (connection.inFlight.length + connection.waiting.length >= limits.maxPipelined) {
      close(connection, `more than ${limits.maxPipelined} requests sent ahead of their answers`);
      return;
    }
    if (
      connection.waiting.length === 0 &&
      blocked.size === 0 &&
      !totalFull() &&
      ownTurn(connection, limits.maxQueuedBytes)
    ) {
      handOn(connection, { req, res });
      return;
    }
    connection.waiting.push({ req, res });
    req.socket.pause();
    pump(connection);
  };

  // The kernel taking part of an answer raises no event: the sweep measures the connections that
  // hold bytes, to see which clients take none.
  const sweepMs = Math.max(10, Math.min(500, Math.floor(limits.writeTimeout / 4)));
  const sweep = setInterval(() => {
    // An answer built for a blocked connection that takes long (a delay scenario) lets the next go.
    if (building !== undefined && performance.now() - building.since >= sweepMs) {
      building = undefined;
      unblock();
    }
    for (const connection of connections.values()) {
      if (connection.held === 0) continue;
      measure(connection);
      const stalled = performance.now() - connection.progressAt;
      if (connection.held === 0) continue;
      if (stalled >= limits.writeTimeout) {
        close(connection, `took none of its answers for ${limits.writeTimeout} ms`);
      } else if (
        blocked.size > 0 &&
        stalled >= Math.max(pressure.stallMs, (connection.held / pressure.minTakeBytesPerS) * 1000)
      ) {
        close(connection, 'took none of its answers while others waited for the queued total');
      }
    }
  }, sweepMs);
  sweep.unref();

  return {
    listener,
    mayAnswerRaw: (socket) => {
      const connection = connections.get(socket);
      if (connection === undefined) return true;
      settle(connection);
      if (connection.waiting.length > 0 || connection.inFlight.length > 1) return false;
      const current = connection.inFlight[0];
      // The request timed out while its own body was arriving, before any of its answer was sent.
      return current === undefined || (!current.req.complete && !current.res.headersSent);
    },
    close: () => {
      clearInterval(sweep);
    },
  };
}
