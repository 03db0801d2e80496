/**
 * The Lua scripts of the Redis state. Redis runs each script whole, with nothing in between, so a
 * rule that reads and writes several keys holds across replicas; each script says which rule it
 * keeps. Session ids ('' is the default session) are checked (session-id.ts) before they reach a
 * key. Pet ids stay decimal strings here: Lua's numbers are doubles, and an int64 above 2^53 would
 * lose digits.
 *
 * Arguments by name, never by position: every script takes the key prefix as ARGV[1] (LIBRARY's
 * P), then the arguments it declares beside its Lua, which a generated prologue binds into the
 * table ARG under the same camelCase names the TypeScript side passes (`ARG.maxPets`). A script
 * with a tail (a run of further values: scenario names, field/value pairs, RECORD's calls) reads
 * it from ARGV[REST] on. argvOf builds ARGV from an object of those names in their declared
 * order, so a call that swaps two values has to swap two names.
 *
 * Keys, under the prefix P:
 *   P meta                   hash: what every replica on the prefix must share (contract, data)
 *   P sessions               sorted set: named session -> when it expires (ms)
 *   P recency                sorted set: named session -> its last use, numbered by P clock
 *                            (not the time: two uses in one millisecond are still ordered)
 *   P budget                 bytes the added pets of all sessions are charged
 *   P charged                hash: session -> bytes its added pets are charged
 *   P cov, P unm, P unmi     the whole suite's coverage (counts; unmatched requests, Space-Saving)
 *   P s{id}:pets             list: the session's added pets (JSON), ascending id
 *   P s{id}:st:<status>      list: the same, of one status; P s{id}:stk names these lists
 *   P s{id}:byid             hash: id -> JSON
 *   P s{id}:next, :added     its next id (absent: the initial data's), pets added since reset
 *   P s{id}:places           set: the places of items (item.ts placeId) the session has written
 *                            to; a place not in it shows its seeded items (item-seeds.ts)
 *   P s{id}:items:<place>    hash: order code (redis-items.ts) -> item JSON
 *   P s{id}:keys:<place>     sorted set, every score 0: the same order codes, listed in key order
 *   P s{id}:counters         hash: resource -> the number of its next made key (decimal)
 *   P s{id}:items-added      items created since reset (counted against maxPets, as pets are)
 *   P s{id}:switch           hash: name ('' when off), remaining ('' until off); absent: start-up
 *   P s{id}:journal, :jbytes list of `cost|entry`, newest first; their bytes
 *   P s{id}:cov, :unm, :unmi its coverage
 */

/** Helpers every script starts with. */
const LIBRARY = `
local P = ARGV[1]
local function skey(sid, name) return P .. 's{' .. sid .. '}:' .. name end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The pets and items a session added, their charge given back, and its switch and journal: a
-- reset.
local function clear_own(sid)
  local charged = redis.call('HGET', P .. 'charged', sid)
  if charged then
    redis.call('DECRBY', P .. 'budget', charged)
    redis.call('HDEL', P .. 'charged', sid)
  end
  local stk = skey(sid, 'stk')
  for _, k in ipairs(redis.call('SMEMBERS', stk)) do redis.call('DEL', k) end
  local places = skey(sid, 'places')
  for _, place in ipairs(redis.call('SMEMBERS', places)) do
    redis.call('DEL', skey(sid, 'items:' .. place), skey(sid, 'keys:' .. place))
  end
  redis.call('DEL', stk, skey(sid, 'pets'), skey(sid, 'byid'), skey(sid, 'next'),
    skey(sid, 'added'), places, skey(sid, 'counters'), skey(sid, 'items-added'),
    skey(sid, 'switch'), skey(sid, 'journal'), skey(sid, 'jbytes'))
end
-- A session gone (expired or least recently used): all of it, its coverage too.
local function drop(sid)
  clear_own(sid)
  redis.call('DEL', skey(sid, 'cov'), skey(sid, 'unm'), skey(sid, 'unmi'))
  redis.call('ZREM', P .. 'sessions', sid)
  redis.call('ZREM', P .. 'recency', sid)
end
local function prune(now)
  for _, sid in ipairs(redis.call('ZRANGEBYSCORE', P .. 'sessions', '-inf', now)) do drop(sid) end
end
local function live(sid, now)
  if sid == '' then return true end
  local expires = redis.call('ZSCORE', P .. 'sessions', sid)
  return expires ~= false and tonumber(expires) > now
end
-- Opens a session: created if new (the least recently used dropped at the bound), its expiry
-- moved on, and it becomes the most recently used. The default session is always open.
local function open(sid, now, ttl, max)
  if sid == '' then return end
  prune(now)
  if not redis.call('ZSCORE', P .. 'sessions', sid) then
    if redis.call('ZCARD', P .. 'sessions') >= max then
      local oldest = redis.call('ZRANGE', P .. 'recency', 0, 0)
      if oldest[1] then drop(oldest[1]) end
    end
  end
  redis.call('ZADD', P .. 'sessions', now + ttl, sid)
  redis.call('ZADD', P .. 'recency', redis.call('INCR', P .. 'clock'), sid)
end
-- Whether a write of cost more bytes fits in --max-store-bytes (max); and the bytes all
-- sessions' writes take now.
local function fits(cost, max)
  local used = tonumber(redis.call('GET', P .. 'budget') or '0')
  return used + cost <= max, used
end
-- Charges a session's write to the bytes budget (a reset gives it back: clear_own).
local function charge(sid, cost)
  redis.call('INCRBY', P .. 'budget', cost)
  redis.call('HINCRBY', P .. 'charged', sid, cost)
end
-- A positive decimal plus one, digit by digit (Lua's numbers are doubles: beyond 2^53 they would
-- lose digits).
local function next_decimal(text)
  local digits = {}
  for i = 1, #text do digits[i] = string.byte(text, i) - 48 end
  local i = #digits
  while i >= 1 do
    if digits[i] < 9 then digits[i] = digits[i] + 1 break end
    digits[i] = 0
    i = i - 1
  end
  local next = table.concat(digits)
  if i == 0 then next = '1' .. next end
  return next
end
-- Whether positive decimal a is greater than positive decimal b (neither with leading zeros).
local function decimal_above(a, b)
  return #a > #b or (#a == #b and a > b)
end
local function switch_of(sid, startup)
  local v = redis.call('HMGET', skey(sid, 'switch'), 'name', 'remaining')
  if not v[1] then return startup, '' end
  return v[1], v[2] or ''
end
`;

/** A Lua script and the names of the arguments it takes after the prefix, in ARGV order. */
export interface RedisScript<Name extends string = string, Tail extends boolean = boolean> {
  /** The library, the prologue that binds the names, then the body. */
  readonly lua: string;
  readonly names: readonly Name[];
  /** Whether further values follow the named ones (the body reads them from ARGV[REST] on). */
  readonly tail: Tail;
}

/** Named arguments: one string for each name. */
export type ArgsOf<Name extends string> = Readonly<Record<Name, string>>;

/** A Lua table constructor binding each name to ARGV at `at(its index)`. */
function bind(names: readonly string[], at: (index: number) => string): string {
  const seen = new Set<string>();
  const fields = names.map((name, index) => {
    // One identifier for the Lua key and the TypeScript property; twice would bind only the last.
    if (!/^[a-z][A-Za-z0-9]*$/.test(name) || seen.has(name)) {
      throw new Error(`a script argument needs a camelCase name of its own: ${name}`);
    }
    seen.add(name);
    return `${name} = ARGV[${at(index)}]`;
  });
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
}

/** The library, the prologue binding `names` from ARGV[2] on (REST after them), the body. */
function build<const Name extends string, Tail extends boolean>(
  names: readonly Name[],
  tail: Tail,
  body: string,
): RedisScript<Name, Tail> {
  const prologue = [`local ARG = ${bind(names, (index) => String(index + 2))}`];
  if (tail) prologue.push(`local REST = ${names.length + 2}`);
  return { lua: `${LIBRARY}\n${prologue.join('\n')}\n${body}`, names, tail };
}

/** A script that takes the prefix and its named arguments. */
function script<const Name extends string>(
  names: readonly Name[],
  body: string,
): RedisScript<Name, false> {
  return build(names, false, body);
}

/** A script that takes the prefix, its named arguments, then a tail from ARGV[REST] on. */
function scriptWithTail<const Name extends string>(
  names: readonly Name[],
  body: string,
): RedisScript<Name, true> {
  return build(names, true, body);
}

/** ARGV after the prefix: the named arguments in the script's declared order, then the tail. */
export function argvOf<Name extends string>(
  script: RedisScript<Name>,
  args: NoInfer<ArgsOf<Name>>,
  tail: readonly string[] = [],
): string[] {
  return [...inOrder(script.names, args), ...tail];
}

/** The values of `args` in the order of `names`. */
export function inOrder<Name extends string>(
  names: readonly Name[],
  args: NoInfer<ArgsOf<Name>>,
): string[] {
  return names.map((name) => args[name]);
}

/**
 * Opens the session; takes its switch if `take` is '1'. Tail: the names of the scenarios with a
 * rule for the request's operation.
 * Keeps: "on for the next N" fires exactly N times however the requests spread over replicas.
 */
export const BEGIN_CALL = scriptWithTail(
  ['sid', 'sessionTtl', 'maxSessions', 'startupScenario', 'take'],
  `
local now = now_ms()
local sid = ARG.sid
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
if ARG.take ~= '1' then return false end
local name, remaining = switch_of(sid, ARG.startupScenario)
if name == '' then return false end
local hit = false
for i = REST, #ARGV do if ARGV[i] == name then hit = true break end end
if not hit then return false end
if remaining ~= '' then
  local left = tonumber(remaining) - 1
  if left > 0 then
    redis.call('HSET', skey(sid, 'switch'), 'name', name, 'remaining', tostring(left))
  else
    redis.call('HSET', skey(sid, 'switch'), 'name', '', 'remaining', '')
  end
end
return name
`,
);

/**
 * initialNextId: the initial data's next id; petJsonAfterId: the pet's JSON after its id
 * (`"name":…}`); costWithoutId: its charge but for the id's digits; status: '' for none.
 * Keeps: ids are never handed out twice (one counter per session, also across replicas and
 * restarts); a create and its charge to both budgets are one step, refused whole when over one.
 */
export const CREATE_PET = script(
  [
    'sid',
    'sessionTtl',
    'maxSessions',
    'initialNextId',
    'maxPets',
    'maxStoreBytes',
    'petJsonAfterId',
    'costWithoutId',
    'status',
  ],
  `
local now = now_ms()
local sid = ARG.sid
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
local added = tonumber(redis.call('GET', skey(sid, 'added')) or '0')
if added >= tonumber(ARG.maxPets) then return {'full-pets'} end
-- The session's counter, or the initial data's next id where that is further (a reload).
local first = ARG.initialNextId
local id = redis.call('GET', skey(sid, 'next')) or first
if decimal_above(first, id) then id = first end
local cost = tonumber(ARG.costWithoutId) + #id
local ok, used = fits(cost, tonumber(ARG.maxStoreBytes))
if not ok then return {'full-bytes', tostring(used)} end
local json = '{"id":' .. id .. ',' .. ARG.petJsonAfterId
redis.call('RPUSH', skey(sid, 'pets'), json)
redis.call('HSET', skey(sid, 'byid'), id, json)
if ARG.status ~= '' then
  local list = skey(sid, 'st:' .. ARG.status)
  redis.call('RPUSH', list, json)
  redis.call('SADD', skey(sid, 'stk'), list)
end
redis.call('SET', skey(sid, 'next'), next_decimal(id))
redis.call('INCR', skey(sid, 'added'))
charge(sid, cost)
return {'ok', json}
`,
);

/** Where a session keeps the items of a place it has written to. */
const ITEM_KEYS = `
local function items_of(sid, place) return skey(sid, 'items:' .. place) end
local function keys_of(sid, place) return skey(sid, 'keys:' .. place) end
`;

/**
 * What the scripts that write items share. own_place: whether the session has its own copy of
 * the place. A write that finds none answers {'seeds'}, changing nothing; the client sends it
 * again with the place's seeded items as the tail (order code, JSON pairs) and seeded '1', and
 * they are copied in the same step as the write, so that calls racing to copy a place, from any
 * replica, keep one copy. The other helpers make keys as item.ts madeKey does, and their order
 * codes as redis-items.ts orderCode does, for the keys a script makes (ASCII only).
 */
const ITEM_WRITES = `${ITEM_KEYS}
local function own_place(sid, place, seeded)
  local places = skey(sid, 'places')
  if redis.call('SISMEMBER', places, place) == 1 then return true end
  if seeded ~= '1' then return false end
  local items, keys = items_of(sid, place), keys_of(sid, place)
  for i = REST, #ARGV, 2 do
    redis.call('HSET', items, ARGV[i], ARGV[i + 1])
    redis.call('ZADD', keys, 0, ARGV[i])
  end
  redis.call('SADD', places, place)
  return true
end
local INT64_MAX = '9223372036854775807'
local function order_of(key)
  if string.match(key, '^%d+$') and not decimal_above(key, INT64_MAX) then
    return '1' .. string.rep('0', 19 - #key) .. key .. ' ' .. key
  end
  local units = string.gsub(key, '.', function(c) return string.format('%04x', string.byte(c)) end)
  return '2' .. units
end
-- The last 12 hex digits of a decimal (n mod 2^48): each step stays below 2^52, exact in a double.
local function low_hex(decimal)
  local n = 0
  for i = 1, #decimal do n = (n * 10 + string.byte(decimal, i) - 48) % 281474976710656 end
  return string.format('%06x%06x', math.floor(n / 16777216), n % 16777216)
end
local function made_key(kind, n)
  if kind == 'uuid' then return '00000000-0000-4000-8000-' .. low_hex(n) end
  return n
end
`;

/**
 * The session's items of a place in key order, as JSON; false while the place shows its seeded
 * items (the session has not written to it). A read: opens no session.
 */
export const LIST_ITEMS = script(
  ['sid', 'place'],
  `${ITEM_KEYS}
local sid, place = ARG.sid, ARG.place
if redis.call('SISMEMBER', skey(sid, 'places'), place) == 0 then return false end
local items, out = items_of(sid, place), {}
for _, order in ipairs(redis.call('ZRANGE', keys_of(sid, place), 0, -1)) do
  table.insert(out, redis.call('HGET', items, order))
end
return out
`,
);

/**
 * The item with this order code: {json}, or {} if there is none; false while the place shows its
 * seeded items. A read: opens no session.
 */
export const GET_ITEM = script(
  ['sid', 'place', 'order'],
  `${ITEM_KEYS}
local sid, place = ARG.sid, ARG.place
if redis.call('SISMEMBER', skey(sid, 'places'), place) == 0 then return false end
local json = redis.call('HGET', items_of(sid, place), ARG.order)
if not json then return {} end
return {json}
`,
);

/**
 * made: the kind of key to make ('integer', 'string', 'uuid'), or '' for the client's: then key is
 * its text, order its order code, counterFloor the least the counter may be after it (its
 * integer plus one; '' for none) and jsonBefore the whole JSON. For a made key, the item's JSON
 * is jsonBefore, the key's JSON, jsonAfter, and costWithoutKey its charge but for the key's JSON.
 * firstCounter: where the resource's counter starts (seeds.firstCounter). Tail: the seeds.
 * Keeps: keys are never handed out twice (one counter per resource and session, across
 * replicas); a taken key stores nothing; a create and its charge to both budgets are one step,
 * refused whole (no key used) when over one.
 */
export const CREATE_ITEM = scriptWithTail(
  [
    'sid',
    'sessionTtl',
    'maxSessions',
    'place',
    'resource',
    'firstCounter',
    'made',
    'key',
    'order',
    'counterFloor',
    'jsonBefore',
    'jsonAfter',
    'costWithoutKey',
    'maxPets',
    'maxStoreBytes',
    'seeded',
  ],
  `${ITEM_WRITES}
local now = now_ms()
local sid, place = ARG.sid, ARG.place
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
if not own_place(sid, place, ARG.seeded) then return {'seeds'} end
local items, counters = items_of(sid, place), skey(sid, 'counters')
local counter = redis.call('HGET', counters, ARG.resource) or ARG.firstCounter
local key, order, key_json = ARG.key, ARG.order, ''
if ARG.made ~= '' then
  key = made_key(ARG.made, counter)
  order = order_of(key)
  key_json = key
  if ARG.made ~= 'integer' then key_json = '"' .. key .. '"' end
end
if redis.call('HEXISTS', items, order) == 1 then return {'taken', key} end
local added = tonumber(redis.call('GET', skey(sid, 'items-added')) or '0')
if added >= tonumber(ARG.maxPets) then return {'full-pets'} end
local cost = tonumber(ARG.costWithoutKey) + #key_json
local ok, used = fits(cost, tonumber(ARG.maxStoreBytes))
if not ok then return {'full-bytes', tostring(used)} end
local json = ARG.jsonBefore .. key_json .. ARG.jsonAfter
redis.call('HSET', items, order, json)
redis.call('ZADD', keys_of(sid, place), 0, order)
-- Past a client's integer key too, so made keys never meet it.
if ARG.made ~= '' then
  counter = next_decimal(counter)
elseif ARG.counterFloor ~= '' and decimal_above(ARG.counterFloor, counter) then
  counter = ARG.counterFloor
end
redis.call('HSET', counters, ARG.resource, counter)
redis.call('INCR', skey(sid, 'items-added'))
charge(sid, cost)
return {'ok', json}
`,
);

/**
 * Puts the JSON in the place of the item with this order code, charging cost; {'missing'} (nothing
 * changed) if there is none. Tail: the seeds.
 */
export const REPLACE_ITEM = scriptWithTail(
  ['sid', 'sessionTtl', 'maxSessions', 'place', 'order', 'json', 'cost', 'maxStoreBytes', 'seeded'],
  `${ITEM_WRITES}
local now = now_ms()
local sid, place = ARG.sid, ARG.place
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
if not own_place(sid, place, ARG.seeded) then return {'seeds'} end
local items = items_of(sid, place)
if redis.call('HEXISTS', items, ARG.order) == 0 then return {'missing'} end
local cost = tonumber(ARG.cost)
local ok, used = fits(cost, tonumber(ARG.maxStoreBytes))
if not ok then return {'full-bytes', tostring(used)} end
redis.call('HSET', items, ARG.order, ARG.json)
charge(sid, cost)
return {'ok'}
`,
);

/** Removes the item with this order code; {'missing'} if there is none. Tail: the seeds. */
export const DELETE_ITEM = scriptWithTail(
  ['sid', 'sessionTtl', 'maxSessions', 'place', 'order', 'seeded'],
  `${ITEM_WRITES}
local now = now_ms()
local sid, place = ARG.sid, ARG.place
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
if not own_place(sid, place, ARG.seeded) then return {'seeds'} end
if redis.call('HDEL', items_of(sid, place), ARG.order) == 0 then return {'missing'} end
redis.call('ZREM', keys_of(sid, place), ARG.order)
return {'ok'}
`,
);

/**
 * Keeps: a reset is whole (a reset racing creates leaves no half state) and gives back exactly
 * what the session's pets were charged. Coverage is kept.
 */
export const RESET = script(
  ['sid', 'sessionTtl', 'maxSessions'],
  `
local now = now_ms()
local sid = ARG.sid
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
clear_own(sid)
return true
`,
);

/** scenario: '' switches off; remaining: '' until switched off. */
export const SET_SWITCH = script(
  ['sid', 'sessionTtl', 'maxSessions', 'scenario', 'remaining'],
  `
local now = now_ms()
local sid = ARG.sid
open(sid, now, tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions))
redis.call('HSET', skey(sid, 'switch'), 'name', ARG.scenario, 'remaining', ARG.remaining)
return true
`,
);

/** The switch of a live session: {name, remaining}, or false. */
export const ACTIVE = script(
  ['sid', 'startupScenario'],
  `
local sid = ARG.sid
if not live(sid, now_ms()) then return false end
local name, remaining = switch_of(sid, ARG.startupScenario)
if name == '' then return false end
return {name, remaining}
`,
);

/**
 * The live named sessions, most recently used first, each as id, name, remaining (name '' when
 * off); the default session's switch first, as ''.
 */
export const SESSIONS = script(
  ['startupScenario'],
  `
local now = now_ms()
local out = {}
local function add(sid)
  local name, remaining = switch_of(sid, ARG.startupScenario)
  table.insert(out, sid)
  table.insert(out, name)
  table.insert(out, remaining)
end
add('')
for _, sid in ipairs(redis.call('ZREVRANGE', P .. 'recency', 0, -1)) do
  if live(sid, now) then add(sid) end
end
return out
`,
);

/** A live session's journal, newest first, at most `limit`; false if it is not live. */
export const JOURNAL = script(
  ['sid', 'limit'],
  `
local sid = ARG.sid
if not live(sid, now_ms()) then return false end
return redis.call('LRANGE', skey(sid, 'journal'), 0, tonumber(ARG.limit) - 1)
`,
);

/** sid: '' for the suite's. A live session's coverage, or the suite's; false if gone. */
export const COVERAGE = script(
  ['sid'],
  `
local sid = ARG.sid
local base = P
if sid ~= '' then
  if not live(sid, now_ms()) then return false end
  base = skey(sid, '')
end
return {
  redis.call('HGETALL', base .. 'cov'),
  redis.call('ZRANGE', base .. 'unm', 0, -1, 'WITHSCORES'),
  redis.call('HGETALL', base .. 'unmi'),
}
`,
);

/** sid: '' for every coverage: the suite's, the default session's and each live one's. */
export const CLEAR_COVERAGE = script(
  ['sid'],
  `
local sid = ARG.sid
local function clear(base) redis.call('DEL', base .. 'cov', base .. 'unm', base .. 'unmi') end
if sid ~= '' then
  if live(sid, now_ms()) then clear(skey(sid, '')) end
  return true
end
clear(P)
clear(skey('', ''))
for _, named in ipairs(redis.call('ZRANGE', P .. 'sessions', 0, -1)) do clear(skey(named, '')) end
return true
`,
);

/** The default session and the live named ones, for scripts that go over all of them. */
const EVERY_SESSION = `
local function every_session()
  local all = {''}
  for _, sid in ipairs(redis.call('ZRANGEBYSCORE', P .. 'sessions', '(' .. now_ms(), '+inf')) do
    table.insert(all, sid)
  end
  return all
end
`;

/** Each live session's added pets: {sid, {json...}}. For a reload's checks. */
export const STORED_PETS = script(
  [],
  `${EVERY_SESSION}
local out = {}
for _, sid in ipairs(every_session()) do
  table.insert(out, {sid, redis.call('LRANGE', skey(sid, 'pets'), 0, -1)})
end
return out
`,
);

/**
 * Every session's items in the places it has written to: {sid, place, {json...}} each.
 */
export const STORED_ITEMS = script(
  [],
  `${EVERY_SESSION}${ITEM_KEYS}
local out = {}
for _, sid in ipairs(every_session()) do
  for _, place in ipairs(redis.call('SMEMBERS', skey(sid, 'places'))) do
    table.insert(out, {sid, place, redis.call('HVALS', items_of(sid, place))})
  end
end
return out
`,
);

/**
 * Tail: the names of the scenarios there are now. Turns off each switch whose scenario is gone;
 * returns sid, name of each.
 */
export const SWITCH_OFF = scriptWithTail(
  ['startupScenario'],
  `${EVERY_SESSION}
local known = {}
for i = REST, #ARGV do known[ARGV[i]] = true end
local out = {}
for _, sid in ipairs(every_session()) do
  local name = switch_of(sid, ARG.startupScenario)
  if name ~= '' and not known[name] then
    redis.call('HSET', skey(sid, 'switch'), 'name', '', 'remaining', '')
    table.insert(out, sid)
    table.insert(out, name)
  end
end
return out
`,
);

/** Keeps: every live session reset at once (a reload with reset). */
export const RESET_ALL = script(
  [],
  `${EVERY_SESSION}
for _, sid in ipairs(every_session()) do clear_own(sid) end
return true
`,
);

/**
 * What RECORD takes per call, in ARGV order. authenticated: '1'/'0'; cost: '' when nothing is
 * journaled; then the coverage: kind 'op' with its operationId as `operation`, status ('' for
 * none sent), forced and broke ('1'/'0'); or kind 'unm' with 'METHOD path' as `operation` and ''
 * for the rest.
 */
export const RECORD_CALL = [
  'sid',
  'authenticated',
  'cost',
  'entry',
  'kind',
  'operation',
  'status',
  'forced',
  'broke',
] as const;

/** How many arguments each call takes in RECORD. */
export const RECORD_ARITY = RECORD_CALL.length;

/**
 * journalShare: a session's share of --journal-bytes. Tail: the calls, RECORD_CALL's names for each.
 * Keeps: the journal bounded by count and bytes per session; counts never lost to a race.
 */
export const RECORD = scriptWithTail(
  ['sessionTtl', 'maxSessions', 'journalSize', 'journalShare', 'maxUnmatched'],
  `
local now = now_ms()
local ttl, max = tonumber(ARG.sessionTtl), tonumber(ARG.maxSessions)
local capacity, max_bytes = tonumber(ARG.journalSize), tonumber(ARG.journalShare)
local unm_cap = tonumber(ARG.maxUnmatched)
local function call_at(i) return ${bind(RECORD_CALL, (index) => (index === 0 ? 'i' : `i + ${index}`))} end
local function count(base, call)
  if call.kind == 'op' then
    if call.status == '' then
      redis.call('HINCRBY', base .. 'cov', 'n|' .. call.operation, 1)
      return
    end
    local pair = call.operation .. '|' .. call.status
    redis.call('HINCRBY', base .. 'cov', 'c|' .. pair, 1)
    if call.forced == '1' then redis.call('HINCRBY', base .. 'cov', 'f|' .. pair, 1) end
    if call.broke == '1' then redis.call('HINCRBY', base .. 'cov', 'v|' .. pair, 1) end
    return
  end
  -- Space-Saving over at most unm_cap requests that matched no operation (top-counts.ts).
  local zset, inherited, request = base .. 'unm', base .. 'unmi', call.operation
  if redis.call('ZSCORE', zset, request) then
    redis.call('ZINCRBY', zset, 1, request)
    return
  end
  if unm_cap <= 0 then return end
  local least = 0
  if redis.call('ZCARD', zset) >= unm_cap then
    local lowest = redis.call('ZRANGE', zset, 0, 0, 'WITHSCORES')
    redis.call('ZREM', zset, lowest[1])
    redis.call('HDEL', inherited, lowest[1])
    least = tonumber(lowest[2])
  end
  redis.call('ZADD', zset, least + 1, request)
  redis.call('HSET', inherited, request, least)
end
for i = REST, #ARGV, ${RECORD_ARITY} do
  local call = call_at(i)
  local sid = call.sid
  if call.authenticated == '1' then
    open(sid, now, ttl, max)
  elseif not live(sid, now) then
    sid = ''
  end
  if capacity > 0 and call.cost ~= '' then
    local journal, bytes = skey(sid, 'journal'), skey(sid, 'jbytes')
    redis.call('LPUSH', journal, call.cost .. '|' .. call.entry)
    local total = redis.call('INCRBY', bytes, call.cost)
    while redis.call('LLEN', journal) > capacity or total > max_bytes do
      local oldest = redis.call('RPOP', journal)
      if not oldest then break end
      total = redis.call('DECRBY', bytes, tonumber(string.match(oldest, '^(%d+)|')))
    end
  end
  count(skey(sid, ''), call)
  count(P, call)
end
return true
`,
);

/**
 * Tail: field/value pairs of what this mock serves. Keeps: every replica on a prefix serves the
 * same contract and initial data: the first to start writes them; each field that differs is
 * returned as field, kept value.
 */
export const CLAIM_PREFIX = scriptWithTail(
  [],
  `
local out = {}
for i = REST, #ARGV, 2 do
  redis.call('HSETNX', P .. 'meta', ARGV[i], ARGV[i + 1])
  local kept = redis.call('HGET', P .. 'meta', ARGV[i])
  if kept ~= ARGV[i + 1] then
    table.insert(out, ARGV[i])
    table.insert(out, kept)
  end
end
return out
`,
);
