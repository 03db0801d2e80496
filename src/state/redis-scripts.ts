/**
 * The Lua scripts of the Redis state. Redis runs each script whole, with nothing in between, so a
 * rule that reads and writes several keys holds across replicas; each script says which rule it
 * keeps. Every script takes the key prefix as ARGV[1] and the session id as ARGV[2] ('' is the
 * default session); ids are checked (session-id.ts) before they reach a key. Pet ids stay decimal
 * strings here: Lua's numbers are doubles, and an int64 above 2^53 would lose digits.
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
-- The pets a session added, their charge given back, and its switch and journal: a reset.
local function clear_own(sid)
  local charged = redis.call('HGET', P .. 'charged', sid)
  if charged then
    redis.call('DECRBY', P .. 'budget', charged)
    redis.call('HDEL', P .. 'charged', sid)
  end
  local stk = skey(sid, 'stk')
  for _, k in ipairs(redis.call('SMEMBERS', stk)) do redis.call('DEL', k) end
  redis.call('DEL', stk, skey(sid, 'pets'), skey(sid, 'byid'), skey(sid, 'next'),
    skey(sid, 'added'), skey(sid, 'switch'), skey(sid, 'journal'), skey(sid, 'jbytes'))
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
local function switch_of(sid, startup)
  local v = redis.call('HMGET', skey(sid, 'switch'), 'name', 'remaining')
  if not v[1] then return startup, '' end
  return v[1], v[2] or ''
end
`;

/** A script: the library, then its body. */
function script(body: string): string {
  return `${LIBRARY}\n${body}`;
}

/**
 * ARGV: P, sid, ttl, max, startup, take ('1' or '0'), then the names of the scenarios with a rule
 * for the request's operation. Opens the session; takes its switch if asked.
 * Keeps: "on for the next N" fires exactly N times however the requests spread over replicas.
 */
export const BEGIN_CALL = script(`
local now = now_ms()
local sid = ARGV[2]
open(sid, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
if ARGV[6] ~= '1' then return false end
local name, remaining = switch_of(sid, ARGV[5])
if name == '' then return false end
local hit = false
for i = 7, #ARGV do if ARGV[i] == name then hit = true break end end
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
`);

/**
 * ARGV: P, sid, ttl, max, initial next id, max pets, max store bytes, the pet's JSON after its id
 * (`"name":…}`), its charge but for the id's digits, its status ('' for none).
 * Keeps: ids are never handed out twice (one counter per session, also across replicas and
 * restarts); a create and its charge to both budgets are one step, refused whole when over one.
 */
export const CREATE_PET = script(`
local now = now_ms()
local sid = ARGV[2]
open(sid, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
local added = tonumber(redis.call('GET', skey(sid, 'added')) or '0')
if added >= tonumber(ARGV[6]) then return {'full-pets'} end
-- The session's counter, or the initial data's next id where that is further (a reload).
local id = redis.call('GET', skey(sid, 'next')) or ARGV[5]
if #ARGV[5] > #id or (#ARGV[5] == #id and ARGV[5] > id) then id = ARGV[5] end
local cost = tonumber(ARGV[9]) + #id
local used = tonumber(redis.call('GET', P .. 'budget') or '0')
if used + cost > tonumber(ARGV[7]) then return {'full-bytes', tostring(used)} end
local json = '{"id":' .. id .. ',' .. ARGV[8]
redis.call('RPUSH', skey(sid, 'pets'), json)
redis.call('HSET', skey(sid, 'byid'), id, json)
if ARGV[10] ~= '' then
  local list = skey(sid, 'st:' .. ARGV[10])
  redis.call('RPUSH', list, json)
  redis.call('SADD', skey(sid, 'stk'), list)
end
-- The next id: the decimal string plus one, digit by digit.
local digits = {}
for i = 1, #id do digits[i] = string.byte(id, i) - 48 end
local i = #digits
while i >= 1 do
  if digits[i] < 9 then digits[i] = digits[i] + 1 break end
  digits[i] = 0
  i = i - 1
end
local text = table.concat(digits)
if i == 0 then text = '1' .. text end
redis.call('SET', skey(sid, 'next'), text)
redis.call('INCR', skey(sid, 'added'))
redis.call('INCRBY', P .. 'budget', cost)
redis.call('HINCRBY', P .. 'charged', sid, cost)
return {'ok', json}
`);

/**
 * ARGV: P, sid, ttl, max. Keeps: a reset is whole (a reset racing creates leaves no half state)
 * and gives back exactly what the session's pets were charged. Coverage is kept.
 */
export const RESET = script(`
local now = now_ms()
local sid = ARGV[2]
open(sid, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
clear_own(sid)
return true
`);

/** ARGV: P, sid, ttl, max, name ('' switches off), remaining ('' until off). */
export const SET_SWITCH = script(`
local now = now_ms()
local sid = ARGV[2]
open(sid, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
redis.call('HSET', skey(sid, 'switch'), 'name', ARGV[5], 'remaining', ARGV[6])
return true
`);

/** ARGV: P, sid, startup. The switch of a live session: {name, remaining}, or false. */
export const ACTIVE = script(`
local sid = ARGV[2]
if not live(sid, now_ms()) then return false end
local name, remaining = switch_of(sid, ARGV[3])
if name == '' then return false end
return {name, remaining}
`);

/**
 * ARGV: P, '', startup. The live named sessions, most recently used first, each as id, name,
 * remaining (name '' when off); the default session's switch first, as ''.
 */
export const SESSIONS = script(`
local now = now_ms()
local out = {}
local function add(sid)
  local name, remaining = switch_of(sid, ARGV[3])
  table.insert(out, sid)
  table.insert(out, name)
  table.insert(out, remaining)
end
add('')
for _, sid in ipairs(redis.call('ZREVRANGE', P .. 'recency', 0, -1)) do
  if live(sid, now) then add(sid) end
end
return out
`);

/** ARGV: P, sid, limit. A live session's journal, newest first; false if it is not live. */
export const JOURNAL = script(`
local sid = ARGV[2]
if not live(sid, now_ms()) then return false end
return redis.call('LRANGE', skey(sid, 'journal'), 0, tonumber(ARGV[3]) - 1)
`);

/** ARGV: P, sid ('' for the suite's). A live session's coverage, or the suite's; false if gone. */
export const COVERAGE = script(`
local sid = ARGV[2]
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
`);

/** ARGV: P, sid ('' for every coverage: the suite's, the default session's and each live one's). */
export const CLEAR_COVERAGE = script(`
local sid = ARGV[2]
local function clear(base) redis.call('DEL', base .. 'cov', base .. 'unm', base .. 'unmi') end
if sid ~= '' then
  if live(sid, now_ms()) then clear(skey(sid, '')) end
  return true
end
clear(P)
clear(skey('', ''))
for _, named in ipairs(redis.call('ZRANGE', P .. 'sessions', 0, -1)) do clear(skey(named, '')) end
return true
`);

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

/** ARGV: P. Each live session's added pets: {sid, {json...}}. For a reload's checks. */
export const STORED_PETS = script(`${EVERY_SESSION}
local out = {}
for _, sid in ipairs(every_session()) do
  table.insert(out, {sid, redis.call('LRANGE', skey(sid, 'pets'), 0, -1)})
end
return out
`);

/**
 * ARGV: P, startup, then the names of the scenarios there are now. Turns off each switch whose
 * scenario is gone; returns sid, name of each.
 */
export const SWITCH_OFF = script(`${EVERY_SESSION}
local known = {}
for i = 3, #ARGV do known[ARGV[i]] = true end
local out = {}
for _, sid in ipairs(every_session()) do
  local name = switch_of(sid, ARGV[2])
  if name ~= '' and not known[name] then
    redis.call('HSET', skey(sid, 'switch'), 'name', '', 'remaining', '')
    table.insert(out, sid)
    table.insert(out, name)
  end
end
return out
`);

/** ARGV: P. Keeps: every live session reset at once (a reload with reset). */
export const RESET_ALL = script(`${EVERY_SESSION}
for _, sid in ipairs(every_session()) do clear_own(sid) end
return true
`);

/** How many arguments each call takes in RECORD. */
export const RECORD_ARITY = 9;

/**
 * ARGV: P, ttl, max, journal capacity, journal bytes (a session's share), unmatched capacity,
 * then per call: sid, authenticated ('1'/'0'), cost ('' when nothing is journaled), entry JSON,
 * then coverage: 'op', operationId, status ('' for none sent), forced, broke ('1'/'0'); or
 * 'unm', 'METHOD path', '', '', ''.
 * Keeps: the journal bounded by count and bytes per session; counts never lost to a race.
 */
export const RECORD = script(`
local now = now_ms()
local ttl, max = tonumber(ARGV[2]), tonumber(ARGV[3])
local capacity, max_bytes, unm_cap = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local function count(base, kind, a, b, forced, broke)
  if kind == 'op' then
    if b == '' then
      redis.call('HINCRBY', base .. 'cov', 'n|' .. a, 1)
      return
    end
    local pair = a .. '|' .. b
    redis.call('HINCRBY', base .. 'cov', 'c|' .. pair, 1)
    if forced == '1' then redis.call('HINCRBY', base .. 'cov', 'f|' .. pair, 1) end
    if broke == '1' then redis.call('HINCRBY', base .. 'cov', 'v|' .. pair, 1) end
    return
  end
  -- Space-Saving over at most unm_cap requests that matched no operation (top-counts.ts).
  local zset, inherited = base .. 'unm', base .. 'unmi'
  if redis.call('ZSCORE', zset, a) then
    redis.call('ZINCRBY', zset, 1, a)
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
  redis.call('ZADD', zset, least + 1, a)
  redis.call('HSET', inherited, a, least)
end
for i = 7, #ARGV, ${RECORD_ARITY} do
  local sid = ARGV[i]
  if ARGV[i + 1] == '1' then
    open(sid, now, ttl, max)
  elseif not live(sid, now) then
    sid = ''
  end
  local cost = ARGV[i + 2]
  if capacity > 0 and cost ~= '' then
    local journal, bytes = skey(sid, 'journal'), skey(sid, 'jbytes')
    redis.call('LPUSH', journal, cost .. '|' .. ARGV[i + 3])
    local total = redis.call('INCRBY', bytes, cost)
    while redis.call('LLEN', journal) > capacity or total > max_bytes do
      local oldest = redis.call('RPOP', journal)
      if not oldest then break end
      total = redis.call('DECRBY', bytes, tonumber(string.match(oldest, '^(%d+)|')))
    end
  end
  local kind, a, b, forced, broke = ARGV[i + 4], ARGV[i + 5], ARGV[i + 6], ARGV[i + 7], ARGV[i + 8]
  count(skey(sid, ''), kind, a, b, forced, broke)
  count(P, kind, a, b, forced, broke)
end
return true
`);

/**
 * ARGV: P, then field/value pairs of what this mock serves. Keeps: every replica on a prefix
 * serves the same contract and initial data: the first to start writes them; each field that
 * differs is returned as field, kept value.
 */
export const CLAIM_PREFIX = script(`
local out = {}
for i = 2, #ARGV, 2 do
  redis.call('HSETNX', P .. 'meta', ARGV[i], ARGV[i + 1])
  local kept = redis.call('HGET', P .. 'meta', ARGV[i])
  if kept ~= ARGV[i + 1] then
    table.insert(out, ARGV[i])
    table.insert(out, kept)
  end
end
return out
`);
