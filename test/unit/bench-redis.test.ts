import { createHash } from 'node:crypto';
import {
  MARKERS,
  commandCalls,
  judgeGoals,
  ownPathCalls,
  perRequest,
  replicasPerRedis,
  scriptNames,
  splitByAnswer,
  usedCpuSeconds,
  type MonitorEvent,
} from '../../bench/lib/redis-figures.js';
import * as scripts from '../../src/state/redis-scripts.js';

/** INFO commandstats as redis-server 7.0 writes it, the bench's own commands among the mock's. */
const COMMANDSTATS = [
  '# Commandstats',
  'cmdstat_evalsha:calls=400,usec=5200,usec_per_call=13.00,rejected_calls=0,failed_calls=0',
  'cmdstat_config|resetstat:calls=1,usec=20,usec_per_call=20.00,rejected_calls=0,failed_calls=0',
  'cmdstat_echo:calls=400,usec=100,usec_per_call=0.25,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=1,usec=30,usec_per_call=30.00,rejected_calls=0,failed_calls=0',
  'cmdstat_client|list:calls=1,usec=9,usec_per_call=9.00,rejected_calls=3,failed_calls=0',
  'cmdstat_time:calls=400,usec=200,usec_per_call=0.50,rejected_calls=7,failed_calls=0',
  'cmdstat_hget:calls=200,usec=150,usec_per_call=0.75,rejected_calls=0,failed_calls=0',
  '',
].join('\r\n');

const names = scriptNames(scripts);
const shaOf = (name: string): string => {
  const found = [...names].find(([, scriptName]) => scriptName === name);
  if (found === undefined) throw new Error(`no script ${name}`);
  return found[0];
};
const MOCK = '127.0.0.1:50001';
const mock = (...args: string[]): MonitorEvent => ({ args, source: MOCK });
const marker = (text: string): MonitorEvent => ({ args: ['echo', text], source: '127.0.0.1:2' });
const sent = marker(MARKERS.sent);
const answered = marker(MARKERS.answered);
/** A RECORD call carrying `calls` requests: evalsha, sha, 0, six arguments, then 9 per call. */
const record = (calls: number): MonitorEvent =>
  mock(
    'evalsha',
    shaOf('record'),
    '0',
    'p:',
    '1',
    '2',
    '3',
    '4',
    '5',
    ...Array<string>(9 * calls).fill(''),
  );

describe('the Redis bench reads Redis', () => {
  it("counts each command's calls, leaving out those the bench sends itself", () => {
    expect(commandCalls(COMMANDSTATS)).toEqual({ evalsha: 400, time: 400, hget: 200 });
  });

  it('gives scripts and all commands per request', () => {
    expect(perRequest({ evalsha: 390, eval: 10, time: 400, hget: 200 }, 200)).toEqual({
      scripts: 2,
      commands: 5,
    });
  });

  it("sums Redis's user and system CPU seconds from INFO cpu", () => {
    const info = '# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\n';
    expect(usedCpuSeconds(info)).toBeCloseTo(3.75, 6);
  });

  it("names the mock's scripts by the SHA1 that EVALSHA sends (redis-state.ts)", () => {
    const sha = createHash('sha1').update(scripts.BEGIN_CALL.lua).digest('hex');
    expect(names.get(sha)).toBe('beginCall');
    expect([...names.values()]).toEqual(
      expect.arrayContaining(['beginCall', 'createPet', 'record', 'reset', 'claimPrefix']),
    );
    // RECORD_ARITY and RECORD_CALL are not scripts.
    expect([...names.values()]).not.toContain('recordArity');
    expect([...names.values()]).not.toContain('recordCall');
  });
});

describe('splitByAnswer', () => {
  const options = { mockSources: new Set([MOCK]), names, arity: scripts.RECORD_ARITY };

  it("puts the mock's commands between the markers before the answer, the others after", () => {
    const events = [
      sent,
      record(1),
      mock('evalsha', shaOf('beginCall'), '0'),
      { args: ['time'], source: 'lua' },
      mock('hget', 'p:s{}:byid', '31'),
      answered,
      record(2),
      sent,
      mock('evalsha', shaOf('beginCall'), '0'),
      { args: ['evalsha', shaOf('beginCall'), '0'], source: '127.0.0.1:9' },
      answered,
    ];
    expect(splitByAnswer(events, options)).toEqual({
      before: { record: 1, beginCall: 2, hget: 1 },
      after: { record: 1 },
      records: [1, 2],
    });
  });

  it('names a script sent whole (EVAL, after NOSCRIPT) as by its SHA1', () => {
    const events = [sent, mock('eval', scripts.CREATE_PET.lua, '0'), answered];
    expect(splitByAnswer(events, options).before).toEqual({ createPet: 1 });
  });

  it("counts a request's own calls on its path without the records sent in front of them", () => {
    expect(ownPathCalls({ before: { record: 190, beginCall: 200, createPet: 200 } }, 200)).toBe(2);
  });
});

describe('the replicas one Redis serves, on paper', () => {
  it('divides what one Redis core takes by one replica’s rate', () => {
    // 40 µs of Redis CPU per request: 25,000 requests a second; at 2,500 a replica, 10 replicas.
    const { coreRps, replicas } = replicasPerRedis(40e-6, 2500);
    expect(coreRps).toBeCloseTo(25_000, 6);
    expect(replicas).toBeCloseTo(10, 6);
  });
});

describe('the goals of issue 23', () => {
  const at = (rps: number, bad = 0) => ({ rps, bad });
  const split = (before: Record<string, number>) => ({
    before,
    after: {},
    records: [],
    requests: 100,
  });
  const run = (redisRps: number, pathCalls: number, bad = 0, memoryCore = 0.99) => ({
    workloads: [{ id: 'get-c10', label: 'get c10' }],
    measurements: { 'get-c10': { memory: at(1000), redis: at(redisRps, bad) } },
    usage: {
      'get-c10': {
        memory: { rounds: [{ serverCore: 0.99 }, { serverCore: memoryCore }] },
        redis: { rounds: [{ serverCore: 0.5 }] },
      },
    },
    counted: {
      get: {
        label: 'get',
        paces: {
          'back-to-back': split({ beginCall: 100, record: 100 }),
          apart: split({ beginCall: 100, hget: pathCalls - 100 }),
        },
      },
    },
  });
  const results = (...args: Parameters<typeof run>): string[] =>
    judgeGoals(run(...args)).map((t) => t.result);

  it('passes at half the rate in memory and two calls on the path', () => {
    expect(results(500, 200)).toEqual(['pass', 'pass']);
  });

  it('fails below half the rate, or above two calls at any pace', () => {
    expect(results(499, 200)).toEqual(['FAIL', 'pass']);
    expect(results(500, 201)).toEqual(['pass', 'FAIL']);
  });

  it('judges no rate measured with failed requests', () => {
    expect(results(900, 200, 1)[0]).toBe('n/a (failed requests)');
  });

  it('judges no rate of a round where the server in memory did not keep its core busy', () => {
    expect(results(900, 200, 0, 0.9)[0]).toBe('pass');
    expect(results(900, 200, 0, 0.89)[0]).toBe('n/a (other work took the server core)');
  });
});
