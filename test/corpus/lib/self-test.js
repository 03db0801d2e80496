/**
 * The harness checked on itself, so that its verdict on the mock means something: a fake server
 * answers self-test/contract.yaml right or deliberately wrong, and each fault must be reported as
 * exactly its kind (and each right answer as none); a refused start must be reported; the real
 * mock must be started, measured and stopped with nothing left behind.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeServer } from '../self-test/fake-server.js';
import { checkContract } from './check-contract.js';
import { readContract } from './contract.js';
import { corpusHome } from './corpus.js';
import { assertLoopback } from './http-client.js';
import { startMock } from './mock-process.js';
import { createOracle } from './oracle.js';
import { verdictOf } from './report.js';

const CONTRACT = join(corpusHome, 'self-test', 'contract.yaml');

/** The failure kinds each operation of the self-test contract must get, no more, no fewer. */
const EXPECTED_KINDS = {
  'GET /good': [],
  'GET /wrong-type': ['invalid answer'],
  'GET /wrong-status': ['invalid answer', '4xx to a valid request'],
  'GET /wrong-media': ['invalid answer'],
  'GET /missing-header': ['invalid answer'],
  'GET /write-only-leak': ['invalid answer'],
  'GET /body-where-none': ['invalid answer'],
  'GET /crash': ['5xx'],
  'GET /rejects': ['4xx to a valid request'],
  'GET /always-401': ["401 with the contract's credentials"],
  'GET /silent': ['no answer'],
  'GET /random': ['different bytes for the same seed'],
  'GET /things/{id}': [],
  'POST /things': [],
  'GET /bearer': [],
  'GET /basic': [],
  'GET /query-key': [],
  'GET /cookie-key': [],
  'GET /and': [],
  'GET /or': [],
  'POST /form': [],
  'POST /upload': [],
  'GET /styles/{ids}': [],
  'GET /pair': [],
  'GET /pair#named': [],
  'GET /xml': [],
};
const EXPECTED_UNBUILDABLE = ['GET /impossible'];
const EXPECTED_DOCUMENTED_4XX = ['GET /things/{id}'];

/**
 * Runs every check; prints one line each and a closing 'N passed, N failed' line. Resolves true
 * when all passed. `mock` is {cli, cwd, contract}: the real mock and a contract it serves.
 */
export async function runSelfTest(mock, log) {
  const checks = [];
  const check = (name, problem) => {
    checks.push({ name, problem });
    log(problem === undefined ? `ok - ${name}` : `not ok - ${name}: ${problem}`);
  };

  const result = await checkContract({
    id: 'self-test',
    file: CONTRACT,
    launch: startFakeServer,
    options: { quick: 0, requestTimeoutMs: 1500, deadlineMs: 60_000 },
  });
  for (const [op, expected] of Object.entries(EXPECTED_KINDS)) {
    const found = [
      ...new Set(result.failures.filter((f) => f.op === op).map((f) => f.kind)),
    ].sort();
    const want = [...expected].sort();
    const detail = result.failures.find((f) => f.op === op)?.detail;
    const unsent = result.unbuildable.find((u) => u.op === op);
    let problem;
    if (unsent !== undefined) {
      problem = `not sent: ${unsent.reason}`;
    } else if (!same(found, want)) {
      problem = `got ${found.join(' + ') || 'nothing'}${detail ? ` (${detail})` : ''}`;
    }
    check(
      `${op} is reported as ${want.length === 0 ? 'keeping the contract' : want.join(' + ')}`,
      problem,
    );
  }
  const unbuilt = result.unbuildable.map((u) => u.op);
  check(
    'an operation with no valid request is reported, not sent',
    same(unbuilt, EXPECTED_UNBUILDABLE) ? undefined : `got ${unbuilt.join(', ') || 'none'}`,
  );
  const documented = result.documented4xx.map((d) => d.op);
  check(
    'a documented 404 for a sampled id is reported apart',
    same(documented, EXPECTED_DOCUMENTED_4XX)
      ? undefined
      : `got ${documented.join(', ') || 'none'}`,
  );
  const stray = result.failures.filter((f) => f.op === undefined || !(f.op in EXPECTED_KINDS));
  check(
    'no other failure',
    stray.length === 0 ? undefined : stray.map((f) => `${f.kind}: ${f.detail}`).join('; '),
  );
  check('the verdict fails on them', verdictOf([result]).ok ? 'the verdict passed' : undefined);

  const oracle = createOracle(readContract(CONTRACT));
  const bad = await oracle.check('request', '/components/schemas/Thing', { id: 0, name: 'x' });
  check(
    'the oracle refuses a value out of bounds',
    bad.length > 0 ? undefined : 'accepted {id: 0}',
  );
  const readOnly = await oracle.check('request', '/components/schemas/Thing', {
    id: 1,
    name: 'x',
    created: '2026-01-01T00:00:00Z',
  });
  check(
    'the oracle refuses a readOnly property in a request',
    readOnly.length > 0 ? undefined : 'accepted',
  );
  const answer = await oracle.check('response', '/components/schemas/Thing', {
    id: 1,
    name: 'x',
    nickname: null,
  });
  check(
    'the oracle wants a required readOnly property in an answer, and reads nullable',
    answer.length === 1 && /created/.test(answer[0])
      ? undefined
      : `got ${answer.join('; ') || 'valid'}`,
  );
  const day = await oracle.check('request', '/components/schemas/Day', '2025-10-15T13:51:00Z');
  check(
    'the oracle knows OpenAPI 3.0 formats draft-04 lacks (date)',
    day.length > 0 ? undefined : 'accepted a date-time',
  );
  oracle.close();

  let refusedLoopback;
  try {
    assertLoopback('http://192.0.2.1:80/');
  } catch {
    refusedLoopback = true;
  }
  check(
    'nothing is sent beyond the loopback',
    refusedLoopback ? undefined : 'a TEST-NET address was accepted',
  );

  const refused = await startMock({
    ...mock,
    file: join(corpusHome, 'self-test', 'no-such-contract.yaml'),
    seed: 1,
    timeoutMs: 30_000,
  });
  check(
    'a refused start is reported with its message',
    refused.refused !== undefined ? undefined : 'the mock started on a missing file',
  );
  if (refused.refused === undefined) await refused.stop();

  const started = await startMock({ ...mock, file: mock.contract, seed: 1, timeoutMs: 30_000 });
  if (started.refused === undefined) {
    const rss = started.rssMiB();
    const pids = started.pids();
    await started.stop();
    const left = pids.filter((pid) => existsSync(`/proc/${pid}`));
    check(
      'the mock starts as a user starts it, is measured, and stopped whole',
      started.startMs > 0 && rss > 0 && left.length === 0
        ? undefined
        : `start ${started.startMs} ms, RSS ${rss} MiB, pids ${left.join(', ') || 'none'} left after stop`,
    );
  } else {
    check('the mock starts as a user starts it, is measured, and stopped whole', started.refused);
  }

  const failed = checks.filter((c) => c.problem !== undefined).length;
  log(`${checks.length - failed} passed, ${failed} failed`);
  return failed === 0;
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
