/**
 * npm run crash: durability attacks on the built CLI (dist/) with --db, checking that no
 * acknowledged (201) pet is lost and no id shown to a client is handed to another pet.
 *  A. SIGKILL mid-traffic (8 writers), then restart on the same file; 5 rounds (2 with --quick).
 *  B. Mocks as PID 1 in their own PID namespaces (unshare) on one file: a second is refused, and
 *     once the first is SIGKILLed a new one takes the lock over within a few seconds.
 *  B2. The owner frozen (SIGSTOP) until a new mock takes over, then woken with creates waiting:
 *     it must acknowledge none of them.
 *  C. A full disk (a 2 MiB tmpfs): creates fail with 500 and leave nothing behind, their ids not
 *     handed out again; rounds of 8 writers SIGKILLed while the disk is full (6, 3 with --quick),
 *     restarted once it is freed: every acknowledged pet back, none of the failed ones.
 * After each restart the mock has written pets.json whole (file plus journal), so the file holds
 * what it recovered. B and C need root; what cannot run prints "skipped: <why>". Exits 1 on any
 * loss, reuse or failed check. Loopback only; every loop is bounded in count and time.
 * Usage: node test/attacks/crash.js [--quick] [--only a,b,b2,c]
 */
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { killChildrenOnExit, spawnNodeServer } from '../../bench/lib/children.js';
import { freePort, waitFor200 } from '../../bench/lib/http-probe.js';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;

const HOST = '127.0.0.1';
const AUTH = { Authorization: 'Bearer x' };
const ROUNDS = quick ? 2 : 5;
const WRITERS = 8;
/** Bounds of every writer run: creates, seconds, and the wait for one answer. */
const MAX_CREATES = 200_000;
const MAX_WRITE_MS = 30_000;
const REQUEST_TIMEOUT_MS = 5000;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** docs/limits.md: a lock not refreshed for 5 s is taken over; a few seconds of start time on top. */
const TAKEOVER_BOUND_MS = 10_000;
const TAKEOVER_GIVE_UP_MS = 30_000;
const TMPFS_SIZE = '2m';
/** Rounds of C that SIGKILL the mock while the disk is full. */
const FULL_ROUNDS = quick ? 3 : 6;
const { fetch, AbortSignal } = globalThis;

const pickKillDelay = () => 200 + Math.floor(Math.random() * 1300);

/** Files and mounts made here, removed at the end (also on Ctrl-C: see cleanUp). */
const scratch = { dirs: [], mounts: [] };

function cleanUp() {
  for (const mount of scratch.mounts.splice(0)) {
    // Lazy: a child killed a moment ago may still hold a file there.
    spawnSync('umount', ['-l', mount]);
  }
  for (const dir of scratch.dirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.error(`crash: could not remove ${dir}: ${String(error)}`);
    }
  }
}

function scratchDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `petstore-crash-${label}-`));
  scratch.dirs.push(dir);
  return dir;
}

/**
 * Starts the CLI on `db`, on a free port, silent; in a PID namespace of its own (as PID 1) with
 * `namespace`. --kill-child: the mock dies with its unshare, as the runner kills children on exit.
 */
async function startMock(db, { namespace = false } = {}) {
  const port = await freePort();
  const cli = ['dist/cli.js', '--db', db, '--port', String(port), '--log-level', 'silent'];
  const unshare = ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath];
  // Not pinned: nothing here is timed closely, and a shared server core slows every answer.
  const server = namespace
    ? spawnNodeServer([...unshare, ...cli], { node: 'unshare', pin: false })
    : spawnNodeServer(cli, { pin: false });
  server.closed = new Promise((resolve) => {
    server.child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { server, port, origin: `http://${HOST}:${port}` };
}

/** Resolves once the mock answers its health check; fails, with its output, if it ends first. */
function healthy(mock) {
  return waitFor200(`${mock.origin}/__admin/health`, {}, mock.server, START_TIMEOUT_MS);
}

/** 'started' once it answers its health check, 'exited' if it ends first; bounded. */
async function startedOrExited(mock) {
  try {
    await healthy(mock);
    return 'started';
  } catch {
    return mock.server.exited ? 'exited' : 'timeout';
  }
}

async function startReady(db, options) {
  const mock = await startMock(db, options);
  await healthy(mock);
  return mock;
}

/** Waits for the process to end, within `timeoutMs`; its {code, signal}, or undefined. */
function ended(mock, timeoutMs = STOP_TIMEOUT_MS) {
  // Unref'd: a timer left running would keep the runner alive after its last check.
  return Promise.race([mock.server.closed, sleep(timeoutMs, undefined, { ref: false })]);
}

/** The pid of a direct child of `pid`, from /proc. */
function childPidOf(pid) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/**
 * The mock's own pid: the last of the processes started for it, each the child of the one before:
 * under unshare, the bin (PID 1 in the namespace, another pid here); on Node 20, the child the bin
 * supervises (src/cli/launch-flags.ts).
 */
function mockPid(mock) {
  let pid = mock.server.child.pid;
  for (let child = childPidOf(pid); child !== undefined; child = childPidOf(child)) pid = child;
  return pid;
}

/** Sends `signal` to the mock process itself and waits for it (and its unshare) to end. */
async function signalMock(mock, signal) {
  const pid = mockPid(mock);
  if (pid !== undefined) process.kill(pid, signal);
  const result = await ended(mock);
  if (result === undefined) {
    mock.server.child.kill('SIGKILL');
    await ended(mock);
  }
  return result;
}

/** POST /v1/pets; {status, body} (status 0: no answer). */
async function createPet(origin, name) {
  try {
    const res = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: undefined };
  }
}

async function getPet(origin, id) {
  try {
    const res = await fetch(`${origin}/v1/pets/${id}`, {
      headers: AUTH,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
  } catch (error) {
    return { status: 0, body: String(error?.cause ?? error) };
  }
}

/**
 * What clients were shown: every 201's id and name, across restarts. An id shown twice is a
 * reuse, counted against the round that saw it.
 */
function createLedger() {
  const byId = new Map();
  /** Each 201 not recorded, said in a few words (the first 10). */
  const conflicts = [];
  return {
    byId,
    conflicts,
    all: () => [...byId.values()],
    /** Records a 201; false if its id had been shown before (for another pet) or is not one. */
    record(body, name, round) {
      if (typeof body?.id !== 'number' || body.name !== name || byId.has(body.id)) {
        const earlier = byId.get(body?.id)?.name;
        if (conflicts.length < 10) {
          conflicts.push(
            `201 for ${name}: ${JSON.stringify(body).slice(0, 80)}, earlier ${earlier}`,
          );
        }
        return false;
      }
      byId.set(body.id, { id: body.id, name, round });
      return true;
    },
  };
}

/**
 * `count` loops creating pets named `<prefix>-<n>` until stopped, the server stops answering, or
 * a bound is reached. Counts answers by status; 201s go to the ledger.
 */
function startWriters(origin, prefix, ledger, round, count = WRITERS) {
  const run = { acked: 0, reused: 0, byStatus: {}, failed: [], stopped: false };
  const deadline = performance.now() + MAX_WRITE_MS;
  let next = 0;
  const loops = Array.from({ length: count }, async () => {
    while (!run.stopped && next < MAX_CREATES && performance.now() < deadline) {
      const name = `${prefix}-${next}`;
      next += 1;
      const { status, body } = await createPet(origin, name);
      if (status === 0) return; // the server is gone
      run.byStatus[status] = (run.byStatus[status] ?? 0) + 1;
      if (status !== 201) {
        run.failed.push(name);
        continue;
      }
      run.acked += 1;
      if (!ledger.record(body, name, round)) run.reused += 1;
    }
  });
  run.done = Promise.all(loops);
  run.stop = () => {
    run.stopped = true;
    return run.done;
  };
  return run;
}

/** The store as the mock last wrote it whole (at start, and on a clean stop). */
function readStore(db) {
  const data = JSON.parse(readFileSync(db, 'utf8'));
  return { nextId: data.nextId, pets: data.pets };
}

/**
 * Checks the recovered store against the ledger: each shown pet present under its id with its
 * name (else lost, or its id reused by another pet), no id twice, the counter past every shown
 * id; and over HTTP, the pets of `rounds` (the rest is checked in the file only).
 */
async function checkRecovered(mock, db, ledger, rounds) {
  const { nextId, pets } = readStore(db);
  const seen = new Map();
  let duplicates = 0;
  for (const pet of pets) {
    if (seen.has(pet.id)) duplicates += 1;
    seen.set(pet.id, pet);
  }
  const result = { present: 0, lost: 0, reused: duplicates, notes: [] };
  const fetched = [];
  for (const shown of ledger.all()) {
    const pet = seen.get(shown.id);
    if (pet === undefined) {
      result.lost += 1;
      result.notes.push(`id ${shown.id} (round ${shown.round}) not in the file`);
    } else if (pet.name !== shown.name) {
      result.reused += 1;
      result.notes.push(`id ${shown.id} is ${pet.name} in the file, was shown as ${shown.name}`);
    } else if (rounds.has(shown.round)) fetched.push(shown);
    if (shown.id >= nextId) {
      result.reused += 1;
      result.notes.push(`nextId ${nextId} not past shown id ${shown.id}`);
    }
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < fetched.length) {
        const shown = fetched[next];
        next += 1;
        let answer = await getPet(mock.origin, shown.id);
        // No answer is not an answer: asked again (a lost pet answers 404).
        for (let retry = 0; retry < 3 && answer.status === 0; retry += 1) {
          answer = await getPet(mock.origin, shown.id);
        }
        const { status, body } = answer;
        if (status === 200 && body.name === shown.name) {
          result.present += 1;
        } else {
          result.lost += 1;
          const answer = `${status} ${JSON.stringify(body)?.slice(0, 120)}`;
          result.notes.push(`GET /v1/pets/${shown.id} (in the file): ${answer}`);
        }
      }
    }),
  );
  if (duplicates > 0) result.notes.push(`${duplicates} ids twice in the file`);
  return result;
}

/**
 * One round: writers create pets until the mock is SIGKILLed after a random delay, then a new
 * mock starts on the same file and what it holds is checked against what was acknowledged.
 */
async function killUnderWriters(mock, db, ledger, round, prefix) {
  const writers = startWriters(mock.origin, prefix, ledger, round);
  const delay = pickKillDelay();
  await sleep(delay);
  const killed = await signalMock(mock, 'SIGKILL');
  await writers.stop();
  const next = await startReady(db);
  const check = await checkRecovered(next, db, ledger, new Set([round]));
  return {
    mock: next,
    delay,
    signal: killed?.signal,
    byStatus: writers.byStatus,
    notes: check.notes,
    row: {
      acknowledged: shownIn(ledger, round),
      present: check.present,
      lost: check.lost,
      reused: check.reused + writers.reused,
    },
  };
}

/** The shown pets of `round`: the row's "acknowledged". */
const shownIn = (ledger, round) => ledger.all().filter((pet) => pet.round === round).length;

const rows = [];
const skipped = [];

function addRow(row) {
  const pass = row.pass ?? (row.lost === 0 && row.reused === 0);
  rows.push({ ...row, pass });
  console.log(JSON.stringify({ ...row, pass }));
}

/** A: SIGKILL rounds on one file; each restart checks everything shown so far. */
async function attackKill() {
  const db = join(scratchDir('a'), 'pets.json');
  const ledger = createLedger();
  let mock = await startReady(db);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const killed = await killUnderWriters(mock, db, ledger, round, `crash-${round}`);
    mock = killed.mock;
    addRow({
      ...killed.row,
      attack: `A${round}`,
      notes: [
        `killed after ${killed.delay} ms (${killed.signal ?? 'did not end'})`,
        `answers ${JSON.stringify(killed.byStatus)}`,
        ...killed.notes,
      ].join('; '),
    });
  }
  // A clean stop writes pets.json whole and deletes the journal: it then holds every pet.
  const stop = await signalMock(mock, 'SIGTERM');
  const check = await checkRecovered(mock, db, ledger, new Set());
  const journalLeft = existsSync(join(db, '..', '.pets.json.journal'));
  addRow({
    attack: 'A stop',
    acknowledged: ledger.byId.size,
    present: ledger.byId.size - check.lost,
    lost: check.lost,
    reused: check.reused,
    pass: check.lost === 0 && check.reused === 0 && stop?.code === 0 && !journalLeft,
    notes: `SIGTERM: exit ${stop?.code}; journal ${journalLeft ? 'left' : 'gone'}; pets.json read`,
  });
}

/**
 * Starts a mock on `db`, again and again while it is refused (a lock not yet taken over); how
 * long after `since` it answered, and on which attempt. undefined if none started in time.
 */
async function startRetrying(db, options = {}, since = performance.now()) {
  for (let attempt = 1; attempt <= 60; attempt += 1) {
    const mock = await startMock(db, options);
    if ((await startedOrExited(mock)) === 'started') {
      return { mock, attempt, ms: performance.now() - since };
    }
    await ended(mock);
    if (performance.now() - since > TAKEOVER_GIVE_UP_MS) break;
    await sleep(200);
  }
  return undefined;
}

function tookOver(takeover, after) {
  return takeover
    ? `taken over ${(takeover.ms / 1000).toFixed(1)} s after ${after}, attempt ${takeover.attempt}`
    : `NOT taken over within ${TAKEOVER_GIVE_UP_MS / 1000} s of ${after}`;
}

/** Whether this machine lets us make PID namespaces; the reason if not. */
function namespacesRefused() {
  const probe = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'sh', '-c', 'echo $$'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.error) return String(probe.error.message);
  if (probe.status !== 0 || probe.stdout.trim() !== '1') {
    return `unshare --pid refused: ${(probe.stderr || probe.stdout).trim()}`;
  }
  return undefined;
}

/** B: two mocks as PID 1 in their own PID namespaces, one --db file. */
async function attackNamespaces() {
  const refusedWhy = namespacesRefused();
  if (refusedWhy) {
    skipped.push(`B: ${refusedWhy}`);
    console.log(`skipped: B (PID namespaces): ${refusedWhy}`);
    return;
  }
  const db = join(scratchDir('b'), 'pets.json');
  const lockPath = join(db, '..', '.pets.json.lock');
  const ledger = createLedger();
  const notes = [];
  const first = await startReady(db, { namespace: true });
  const owner = JSON.parse(readFileSync(lockPath, 'utf8'));
  notes.push(`owner pid ${owner.pid}`);
  const writers = startWriters(first.origin, 'crash-b', ledger, 1);
  await sleep(300);
  // The second one starts while the first one is busy writing.
  const second = await startMock(db, { namespace: true });
  const secondOutcome = await startedOrExited(second);
  const secondEnd = await ended(second);
  const line = second.server.output.trim().split('\n').at(-1) ?? '';
  const named = line.includes(`process ${owner.pid} on ${hostname()}, instance ${owner.instance}`);
  const refused = secondOutcome === 'exited' && secondEnd?.code !== 0 && named;
  notes.push(`second: ${secondOutcome}, exit ${secondEnd?.code}: "${line.slice(0, 160)}"`);
  if (secondOutcome === 'started') await signalMock(second, 'SIGKILL');
  // The first one keeps its lock and keeps writing.
  const ackedThen = writers.acked;
  await sleep(500);
  const stillOwner = JSON.parse(readFileSync(lockPath, 'utf8')).instance === owner.instance;
  const kept = stillOwner && writers.acked > ackedThen;
  notes.push(`first kept its lock and wrote on: ${kept}`);
  const killedAt = performance.now();
  await signalMock(first, 'SIGKILL');
  await writers.stop();
  // A new mock, PID 1 again, retried until it takes the lock over.
  const takeover = await startRetrying(db, { namespace: true }, killedAt);
  const third = takeover?.mock;
  const takeoverMs = takeover?.ms;
  notes.push(tookOver(takeover, 'the kill'));
  let check = { present: 0, lost: ledger.byId.size, reused: 0, notes: [] };
  let reusedAfter = 0;
  if (third) {
    check = await checkRecovered(third, db, ledger, new Set([1]));
    const after = startWriters(third.origin, 'crash-b-after', ledger, 2, 2);
    await sleep(300);
    await after.stop();
    reusedAfter = after.reused;
    notes.push(`${after.acked} created after the takeover`);
    await signalMock(third, 'SIGTERM');
  }
  addRow({
    attack: 'B',
    acknowledged: shownIn(ledger, 1),
    present: check.present,
    lost: check.lost,
    reused: check.reused + writers.reused + reusedAfter,
    pass:
      refused &&
      kept &&
      takeoverMs !== undefined &&
      takeoverMs <= TAKEOVER_BOUND_MS &&
      check.lost === 0 &&
      check.reused + writers.reused + reusedAfter === 0,
    notes: [...notes, `answers ${JSON.stringify(writers.byStatus)}`, ...check.notes].join('; '),
  });
}

/**
 * B2: the owner frozen (SIGSTOP) past the lock's 5 s; a new mock, PID 1 too, takes the lock over;
 * then the old one wakes (SIGCONT) with creates waiting for it. docs/limits.md: a mock whose lock was
 * taken over writes no more, its creates answer 500. After both stop, a restart must hold every
 * pet either one acknowledged, and no id may have been shown for two pets.
 */
async function attackFrozenOwner() {
  const refusedWhy = namespacesRefused();
  if (refusedWhy) {
    skipped.push(`B2: ${refusedWhy}`);
    console.log(`skipped: B2 (a frozen owner in a PID namespace): ${refusedWhy}`);
    return;
  }
  const db = join(scratchDir('b2'), 'pets.json');
  const ledger = createLedger();
  const notes = [];
  const first = await startReady(db, { namespace: true });
  const firstPid = mockPid(first);
  const before = startWriters(first.origin, 'crash-b2-before', ledger, 1);
  await sleep(300);
  const frozenAt = performance.now();
  process.kill(firstPid, 'SIGSTOP');
  before.stopped = true; // its writers end as their requests time out
  const takeover = await startRetrying(db, { namespace: true }, frozenAt);
  notes.push(tookOver(takeover, 'the freeze'));
  let waking = { acked: 0, reused: 0, byStatus: {}, stop: () => Promise.resolve() };
  let current = waking;
  if (takeover) {
    // Creates wait at the frozen one while the new owner serves others.
    waking = startWriters(first.origin, 'crash-b2-waking', ledger, 2);
    current = startWriters(takeover.mock.origin, 'crash-b2-new', ledger, 3);
    await sleep(300);
  }
  process.kill(firstPid, 'SIGCONT');
  await sleep(1500);
  await Promise.all([waking.stop(), current.stop(), before.done]);
  const firstStop = await signalMock(first, 'SIGTERM');
  const secondStop = takeover ? await signalMock(takeover.mock, 'SIGTERM') : undefined;
  notes.push(
    `before the freeze ${JSON.stringify(before.byStatus)}; woken old owner ${JSON.stringify(waking.byStatus)}; new owner ${JSON.stringify(current.byStatus)}`,
    `SIGTERM: old owner exit ${firstStop?.code}, new owner exit ${secondStop?.code}`,
  );
  const last = await startReady(db);
  const check = await checkRecovered(last, db, ledger, new Set([1, 2, 3]));
  await signalMock(last, 'SIGTERM');
  const wokenAcked = waking.byStatus[201] ?? 0;
  if (wokenAcked > 0)
    notes.push(`THE OLD OWNER ACKNOWLEDGED ${wokenAcked} CREATES AFTER THE TAKEOVER`);
  const reused = check.reused + before.reused + waking.reused + current.reused;
  addRow({
    attack: 'B2',
    acknowledged: ledger.byId.size,
    present: check.present,
    lost: check.lost,
    reused,
    pass: takeover !== undefined && wokenAcked === 0 && check.lost === 0 && reused === 0,
    notes: [...notes, ...ledger.conflicts, ...check.notes.slice(0, 10)].join('; '),
  });
}

/** Fills the file system of `dir` with a file, leaving about `leave` bytes; its path. */
function fillDisk(dir, leave) {
  const path = join(dir, `filler-${Date.now()}`);
  const { bavail, bsize } = statfsSync(dir);
  let rest = Math.max(0, bavail * bsize - leave);
  const chunk = Buffer.alloc(64 * 1024);
  const fd = openSync(path, 'w');
  try {
    for (let i = 0; i < 1000 && rest > 0; i += 1) {
      rest -= writeSync(fd, chunk, 0, Math.min(chunk.length, rest));
    }
  } catch (error) {
    if (error?.code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Creates one pet at a time until `failures` creates failed in a row, at most `max`. */
async function createUntilFull(origin, prefix, ledger, round, failures, max = 2000) {
  const result = { acked: 0, reused: 0, failed: [], byStatus: {}, messages: new Set() };
  let inRow = 0;
  for (let n = 0; n < max && inRow < failures; n += 1) {
    const name = `${prefix}-${n}-${'x'.repeat(400)}`;
    const { status, body } = await createPet(origin, name);
    result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
    if (status === 201) {
      inRow = 0;
      result.acked += 1;
      if (!ledger.record(body, name, round)) result.reused += 1;
    } else {
      inRow += 1;
      result.failed.push(name);
      result.messages.add(`${body?.code}: ${String(body?.message).slice(0, 90)}`);
    }
  }
  return result;
}

/** How many pets of failed creates are back: in the file, or listed (names counted once). */
async function failedBack(origin, db, failedNames) {
  const names = new Set(failedNames);
  const res = await fetch(`${origin}/v1/pets?limit=100`, { headers: AUTH });
  const back = new Set([...readStore(db).pets, ...(await res.json())].map((pet) => pet.name));
  return [...names].filter((name) => back.has(name)).length;
}

/**
 * C, first: a full disk with one create at a time (each failure uses one id, shown to no one):
 * the failed pets are neither kept nor listed, and once space is freed the next ids are past them.
 */
async function fillOneByOne(mnt, db, mock, ledger) {
  const filler = fillDisk(mnt, 24 * 1024);
  const full = await createUntilFull(mock.origin, 'crash-c0', ledger, 1, 3);
  const lastShown = Math.max(...ledger.all().map((pet) => pet.id));
  const failedIds = Array.from({ length: full.failed.length }, (_, i) => lastShown + 1 + i);
  let kept = 0;
  for (const id of failedIds) if ((await getPet(mock.origin, id)).status !== 404) kept += 1;
  kept += await failedBack(mock.origin, db, full.failed);
  unlinkSync(filler);
  const before = ledger.byId.size;
  const freed = await createUntilFull(mock.origin, 'crash-c0-freed', ledger, 1, 1, 20);
  const reusedFailedIds = ledger
    .all()
    .slice(before)
    .filter((pet) => pet.id <= (failedIds.at(-1) ?? 0)).length;
  const notes = [
    `one at a time: ${full.acked} created, then ${full.failed.length} failed (${[...full.messages].join(' | ')})`,
    `freed: ${freed.acked} created, ids from ${ledger.all()[before]?.id ?? '-'} (failed: ${failedIds.join(',')})`,
  ];
  if (kept > 0) notes.push(`FAILED CREATES KEPT OR LISTED: ${kept}`);
  if (reusedFailedIds > 0) notes.push(`FAILED IDS HANDED OUT AGAIN: ${reusedFailedIds}`);
  const ok = full.acked > 0 && full.failed.length > 0 && freed.acked === 20;
  return {
    ok: ok && kept === 0 && reusedFailedIds === 0,
    reused: full.reused + freed.reused,
    notes,
  };
}

/**
 * C: a full disk (a small tmpfs). First one create at a time (fillOneByOne); then rounds of
 * 8 writers on a full disk (creates share appends), SIGKILLed while full, restarted once space
 * is freed: every acknowledged pet back, no failed create back, no id reused; and a last round
 * of a SIGKILL after the disk was freed.
 */
async function attackFullDisk() {
  const mnt = scratchDir('c');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', mnt], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (mounted.status !== 0) {
    const why = `mount -t tmpfs refused: ${(mounted.stderr || String(mounted.error)).trim().split('\n')[0]}`;
    skipped.push(`C: ${why}`);
    console.log(`skipped: C (full disk): ${why}`);
    return;
  }
  scratch.mounts.push(mnt);
  const db = join(mnt, 'pets.json');
  const ledger = createLedger();
  let mock = await startReady(db);
  try {
    let first = await fillOneByOne(mnt, db, mock, ledger);
    for (let round = 1; round <= FULL_ROUNDS; round += 1) {
      const notes = first ? first.notes : [];
      const filler = fillDisk(mnt, 16 * 1024);
      const writers = startWriters(mock.origin, `crash-c${round}`, ledger, round);
      for (let i = 0; i < 200 && (writers.byStatus[500] ?? 0) < 20; i += 1) await sleep(25);
      await signalMock(mock, 'SIGKILL');
      await writers.stop();
      notes.push(`8 writers on a full disk: ${JSON.stringify(writers.byStatus)}, SIGKILL`);
      if (round === 1) {
        const whileFull = await startMock(db);
        const outcome = await startedOrExited(whileFull);
        const line = whileFull.server.output.trim().split('\n').at(-1) ?? '';
        notes.push(`restart while full: ${outcome} "${line.slice(0, 140)}"`);
        if (outcome === 'started') await signalMock(whileFull, 'SIGKILL');
      }
      unlinkSync(filler);
      const restart = await startRetrying(db);
      if (!restart) throw new Error('no mock started again once space was freed');
      mock = restart.mock;
      notes.push(
        `freed, restarted: attempt ${restart.attempt}, ${(restart.ms / 1000).toFixed(1)} s`,
      );
      const check = await checkRecovered(mock, db, ledger, new Set([round]));
      const back = await failedBack(mock.origin, db, writers.failed);
      if (back > 0) notes.push(`FAILED CREATES BACK AFTER RESTART: ${back}`);
      const reused = check.reused + writers.reused + (first?.reused ?? 0);
      addRow({
        attack: `C${round}`,
        acknowledged: shownIn(ledger, round),
        present: check.present,
        lost: check.lost,
        reused,
        pass:
          (first?.ok ?? true) &&
          writers.failed.length > 0 &&
          back === 0 &&
          check.lost === 0 &&
          reused === 0,
        notes: [...notes, ...check.notes].join('; '),
      });
      first = undefined;
    }
    // Space to spare: creates, SIGKILL, restart.
    const round = FULL_ROUNDS + 1;
    const killed = await killUnderWriters(mock, db, ledger, round, `crash-c${round}`);
    mock = killed.mock;
    addRow({
      ...killed.row,
      attack: `C${round}`,
      notes: [`disk freed: ${JSON.stringify(killed.byStatus)}, SIGKILL`, ...killed.notes].join(
        '; ',
      ),
    });
    await signalMock(mock, 'SIGTERM');
    mock = undefined;
  } finally {
    if (mock) await signalMock(mock, 'SIGKILL');
    const unmounted = spawnSync('umount', [mnt], { encoding: 'utf8', timeout: 10_000 });
    if (unmounted.status === 0) scratch.mounts.splice(scratch.mounts.indexOf(mnt), 1);
  }
}

const ATTACKS = [
  { id: 'a', run: attackKill },
  { id: 'b', run: attackNamespaces },
  { id: 'b2', run: attackFrozenOwner },
  { id: 'c', run: attackFullDisk },
];

killChildrenOnExit();
process.on('exit', cleanUp);
const started = performance.now();
let crashed = false;
for (const attack of ATTACKS) {
  if (only && !only.has(attack.id)) continue;
  try {
    await attack.run();
  } catch (error) {
    crashed = true;
    console.log(`${attack.id.toUpperCase()}: FAILED to run: ${String(error?.stack ?? error)}`);
  }
}
cleanUp();
console.log(`\ncrash${quick ? ' --quick' : ''}: node ${process.version}`);
console.log('round  | acknowledged | present after restart | lost | reused ids | verdict');
for (const r of rows) {
  console.log(
    `${r.attack.padEnd(6)} | ${String(r.acknowledged).padStart(12)} | ${String(r.present).padStart(21)} | ${String(r.lost).padStart(4)} | ${String(r.reused).padStart(10)} | ${r.pass ? 'pass' : 'FAIL'}`,
  );
}
for (const r of rows) if (!r.pass) console.log(`${r.attack} FAIL: ${r.notes}`);
for (const line of skipped) console.log(`skipped: ${line}`);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = !crashed && rows.every((r) => r.pass) ? 0 : 1;
