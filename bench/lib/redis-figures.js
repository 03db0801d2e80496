/**
 * The Redis bench's figures from what Redis reports (INFO, MONITOR), and the replicas one Redis
 * serves, on paper. No I/O here: bench/redis.js reads Redis and hands the text in.
 */
import { createHash } from 'node:crypto';

/** What the bench itself sends Redis while it counts: never the mock's. */
const BENCH_COMMANDS = ['config', 'info', 'echo', 'monitor', 'client'];

/** The marker the bench sends (ECHO) before each counted request, and once its answer is in. */
export const MARKERS = { sent: 'bench:sent', answered: 'bench:answered' };

/** The fields of an INFO reply (`name:value` lines; `#` headings and blank lines skipped). */
export function parseInfo(text) {
  const fields = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (line === '' || line.startsWith('#') || colon < 0) continue;
    fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return fields;
}

/** CPU seconds Redis has used (user + system, all its threads), from an INFO cpu reply. */
export function usedCpuSeconds(infoText) {
  const fields = parseInfo(infoText);
  return Number(fields.used_cpu_user) + Number(fields.used_cpu_sys);
}

/**
 * Calls per command from an INFO commandstats reply, without those the bench sends itself.
 * Commands that scripts run are counted too (Redis counts them under their own names).
 */
export function commandCalls(infoText) {
  const calls = {};
  for (const [field, value] of Object.entries(parseInfo(infoText))) {
    if (!field.startsWith('cmdstat_')) continue;
    const name = field.slice('cmdstat_'.length);
    if (BENCH_COMMANDS.includes(name.split('|')[0] ?? '')) continue;
    calls[name] = Number(/(?:^|,)calls=(\d+)/.exec(value)?.[1] ?? 0);
  }
  return calls;
}

/** Scripts run (EVALSHA and EVAL, which only a client sends) and all commands, per request. */
export function perRequest(calls, requests) {
  const scripts = (calls.evalsha ?? 0) + (calls.eval ?? 0);
  const all = Object.values(calls).reduce((sum, count) => sum + count, 0);
  return { scripts: scripts / requests, commands: all / requests };
}

/** `BEGIN_CALL` → `beginCall`. */
function camelCase(constant) {
  return constant.toLowerCase().replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
}

/** The SHA1 of each Lua script of a redis-scripts module → its name (`beginCall`, `record`, …). */
export function scriptNames(scriptsModule) {
  const names = new Map();
  for (const [constant, script] of Object.entries(scriptsModule)) {
    if (typeof script?.lua !== 'string') continue;
    names.set(createHash('sha1').update(script.lua).digest('hex'), camelCase(constant));
  }
  return names;
}

/** A top-level command's name: a script's own name (by its SHA1 or text), else the command's. */
export function commandName(args, names) {
  const command = (args[0] ?? '').toLowerCase();
  if (command === 'evalsha') return names.get(args[1] ?? '') ?? 'evalsha (unknown script)';
  if (command === 'eval') {
    const sha = createHash('sha1')
      .update(args[1] ?? '')
      .digest('hex');
    return names.get(sha) ?? 'eval (unknown script)';
  }
  return command;
}

/**
 * The mock's top-level commands in a MONITOR feed ({ args, source } in Redis's order), split by
 * the bench's markers: `before` were run after a request was sent and before the bench had its
 * answer, so they were on that request's path (or sent along with it); `after`, once an answer
 * was in and before the next request was sent. `records` lists how many calls each RECORD
 * script carried (its arguments: 6, then `arity` per call). Commands that scripts run (source
 * `lua`) and the bench's own are left out.
 */
export function splitByAnswer(events, { mockSources, names, arity }) {
  const before = {};
  const after = {};
  const records = [];
  let waiting = false;
  for (const { args, source } of events) {
    if ((args[0] ?? '').toLowerCase() === 'echo') {
      if (args[1] === MARKERS.sent) waiting = true;
      if (args[1] === MARKERS.answered) waiting = false;
      continue;
    }
    if (!mockSources.has(source)) continue;
    const name = commandName(args, names);
    const side = waiting ? before : after;
    side[name] = (side[name] ?? 0) + 1;
    // evalsha, sha, numkeys 0, then ARGV: prefix, ttl, max, capacity, bytes, unmatched.
    if (name === 'record') records.push((args.length - 9) / arity);
  }
  return { before, after, records };
}

/**
 * On paper: the requests a second one Redis core takes at `cpuSecondsPerRequest`, and how many
 * replicas, each serving `replicaRps`, that keeps busy.
 */
export function replicasPerRedis(cpuSecondsPerRequest, replicaRps) {
  const coreRps = 1 / cpuSecondsPerRequest;
  return { coreRps, replicas: coreRps / replicaRps };
}

/** Issue 23's goals: each rate on Redis at least half the rate in memory; two round trips. */
export const GOALS = { overMemory: 0.5, roundTrips: 2 };

/**
 * A request's own calls before its answer, per request: all the mock's commands run then but
 * the records of earlier requests, which travel in front of them (redis-state.ts sends what is
 * pending first, in the same write).
 */
export function ownPathCalls({ before }, requests) {
  const all = Object.values(before).reduce((sum, count) => sum + count, 0);
  return (all - (before.record ?? 0)) / requests;
}

/**
 * At 10 connections the server in memory keeps its core busy: a round where it did not had its
 * core taken by other work (the machine is shared), and the workload's figures are unreliable.
 */
const UNDISTURBED_SHARE = 0.9;

/** Whether a workload had such a round (its usage: by server, each with its rounds). */
export function disturbed(usage) {
  const rounds = usage?.memory?.rounds ?? [];
  return rounds.some((round) => round.serverCore < UNDISTURBED_SHARE);
}

function verdict(passes) {
  return passes ? 'pass' : 'FAIL';
}

/**
 * The goals judged: each workload's req/s on Redis over in memory (none where a run had
 * failures or was disturbed), and each counted request's own calls before its answer, its
 * worst pace.
 */
export function judgeGoals({ workloads, measurements, usage, counted }) {
  const judged = [];
  for (const { id, label } of workloads) {
    const { memory, redis } = measurements[id] ?? {};
    const target = `${label}: on Redis / in memory`;
    const goal = `≥ ${GOALS.overMemory}×`;
    if (memory === undefined || redis === undefined || memory.bad > 0 || redis.bad > 0) {
      judged.push({ target, measured: '–', goal, result: 'n/a (failed requests)' });
      continue;
    }
    const ratio = redis.rps / memory.rps;
    const measured = `${ratio.toFixed(2)}×`;
    const result = disturbed(usage[id])
      ? 'n/a (other work took the server core)'
      : verdict(ratio >= GOALS.overMemory);
    judged.push({ target, measured, value: ratio, goal, result });
  }
  for (const { label, paces } of Object.values(counted)) {
    const worst = Math.max(
      ...Object.values(paces).map((figures) => ownPathCalls(figures, figures.requests)),
    );
    judged.push({
      target: `${label}: Redis calls on its path`,
      measured: worst.toFixed(2),
      value: worst,
      goal: `≤ ${GOALS.roundTrips}`,
      result: verdict(worst <= GOALS.roundTrips),
    });
  }
  return judged;
}
