/**
 * The Lua scripts of {@link RedisStore}. Each runs atomically on the server. Times are
 * epoch milliseconds passed in ARGV from the store's clock (never Redis TIME), so expiry
 * follows the clock the store was given; real Redis TTLs only garbage-collect keys.
 * Every script touches keys of one cluster slot (see redis-keys.ts), except the
 * `…Indexed` variants, which the store runs only on a single Redis node.
 */
import { RedisScript } from './redis-script.js';

/** The compare-and-set of {@link casConversation}, as a Lua function. */
const casLua = `
local function cas(doc, lease, expected, json, fence, now, expires_at, gc_ms)
  if fence ~= '' then
    local token = redis.call('HGET', lease, 'token')
    if token ~= fence then return {'fenced'} end
  end
  local cur = redis.call('HMGET', doc, 'v', 'e')
  local stored = tonumber(cur[1] or '0')
  local current = stored
  if cur[2] and tonumber(cur[2]) <= tonumber(now) then current = 0 end
  if current ~= tonumber(expected) then return {'conflict', current} end
  redis.call('HSET', doc, 'v', stored + 1, 'd', json, 'e', expires_at)
  redis.call('PEXPIRE', doc, gc_ms)
  return {'ok', stored + 1}
end
`;

/**
 * Compare-and-set of a conversation document, with optional fencing.
 * KEYS[1] doc hash (v = version, d = JSON, e = idle expiry); KEYS[2] the conversation's
 * lease hash. ARGV[1] expected version (0 = must not exist or expired); ARGV[2] new
 * document JSON; ARGV[3] fencing token, or '' for none; ARGV[4] now; ARGV[5] idle
 * expiry; ARGV[6] real TTL in ms. An expired document's version numbers continue.
 * Returns {'fenced'} | {'conflict', currentVersion} | {'ok', newVersion}.
 */
export const casConversation = new RedisScript(`${casLua}
return cas(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`);

/**
 * Plain SETs, then {@link casConversation}, in one script: single node only (the keys
 * SET are in other slots). KEYS[1], KEYS[2] and ARGV[1..6] as {@link casConversation}
 * takes them; then for each further key KEYS[i] (i from 3) its value ARGV[2i+1] and its
 * real TTL in ms ARGV[2i+2] ('' for none). The SETs are made first, whatever the
 * compare-and-set answers.
 */
export const setThenCasIndexed = new RedisScript(`${casLua}
for i = 3, #KEYS do
  if ARGV[2 * i + 2] == '' then
    redis.call('SET', KEYS[i], ARGV[2 * i + 1])
  else
    redis.call('SET', KEYS[i], ARGV[2 * i + 1], 'PX', ARGV[2 * i + 2])
  end
end
return cas(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`);

/**
 * Marks a key seen unless it is seen and not expired at ARGV[1].
 * KEYS[1] the seen key (value: expiry, epoch ms).
 * ARGV[1] now; ARGV[2] expiry (now + ttl); ARGV[3] real TTL in ms for garbage collection.
 * Returns 1 when newly marked, 0 when already seen.
 */
const markSeenLua = `
local function mark_seen(key, now, expires_at, gc_ms)
  local seen_until = redis.call('GET', key)
  if seen_until and tonumber(seen_until) > tonumber(now) then return 0 end
  redis.call('SET', key, expires_at, 'PX', gc_ms)
  return 1
end
`;

/** See {@link markSeenLua}. */
export const markSeen = new RedisScript(`${markSeenLua}
return mark_seen(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
`);

/**
 * The body of {@link enqueue}: KEYS[1..5] and ARGV[1..6] as documented there; `duplicate`
 * is the Lua expression answered for a duplicate.
 */
const enqueueBody = (duplicate: string): string => `${markSeenLua}
if mark_seen(KEYS[1], ARGV[1], ARGV[2], ARGV[3]) == 0 then return ${duplicate} end
local old = redis.call('HGET', KEYS[3], ARGV[4])
if old then
  redis.call('ZREM', KEYS[2], old)
  redis.call('HDEL', KEYS[4], old)
end
-- Members start with a zero-padded arrival number: equal scores sort by arrival.
local member = string.format('%016d', redis.call('INCR', KEYS[5])) .. ARGV[4]
redis.call('ZADD', KEYS[2], ARGV[5], member)
redis.call('HSET', KEYS[3], ARGV[4], member)
redis.call('HSET', KEYS[4], member, ARGV[6])
`;

/**
 * Dedup + inbox append. An item id already in the inbox (its dedup expired) is moved.
 * KEYS[1] seen key of the item; KEYS[2] inbox zset; KEYS[3] id -> member hash;
 * KEYS[4] member -> item JSON hash; KEYS[5] arrival counter.
 * ARGV[1] now; ARGV[2] dedup expiry; ARGV[3] GC ttl ms; ARGV[4] item id;
 * ARGV[5] sortKey (the zset score); ARGV[6] item JSON.
 * Returns 1 when appended, 0 when a duplicate, 2 when a duplicate still waiting in the
 * inbox. The caller then adds the conversation to the set of conversations with an inbox
 * (another cluster slot) for 1 and 2: a worker killed between the append and that
 * addition left the item unlisted, and the redelivery (callback retry, next poll) lists it.
 */
export const enqueue = new RedisScript(`${enqueueBody(
  "redis.call('HEXISTS', KEYS[3], ARGV[4]) * 2",
)}
return 1
`);

/**
 * {@link enqueue} that also adds the conversation to the set of conversations with an
 * inbox, in the same script: one round trip and no window between the two. The set is
 * in another cluster slot, so this is only for a single Redis node (not a cluster).
 * KEYS[1..5], ARGV[1..6] as {@link enqueue}; KEYS[6] that set; ARGV[7] the conversation id;
 * ARGV[8] its score when this lists it (the end of its claim: now, or later when claimed).
 */
export const enqueueIndexed = new RedisScript(`${enqueueBody('0')}
redis.call('ZADD', KEYS[6], 'NX', ARGV[8], ARGV[7])
return 1
`);

/**
 * The first items of an inbox.
 * KEYS[1] inbox zset; KEYS[2] member -> item JSON hash. ARGV[1] limit (> 0).
 * Returns the item JSON strings in order.
 */
export const peekInbox = new RedisScript(`
local members = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #members == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(members))
`);

/** Removes the ids ARGV[first..] from an inbox (KEYS as {@link ackInbox}); sets `left`. */
const ackLua = (first: number): string => `
for i = ${first}, #ARGV do
  local id = ARGV[i]
  local member = redis.call('HGET', KEYS[2], id)
  if member then
    redis.call('ZREM', KEYS[1], member)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], member)
  end
end
local left = redis.call('ZCARD', KEYS[1])
if left == 0 then redis.call('DEL', KEYS[4]) end
`;

/**
 * Removes items from an inbox; resets the arrival counter when it empties.
 * KEYS[1] inbox zset; KEYS[2] id -> member hash; KEYS[3] member -> JSON hash;
 * KEYS[4] arrival counter. ARGV: the item ids.
 * Returns the number of items left.
 */
export const ackInbox = new RedisScript(`${ackLua(1)}
return left
`);

/**
 * {@link ackInbox} that also removes the conversation from the set of conversations
 * with an inbox when its inbox empties, in the same script (one round trip; with
 * {@link enqueueIndexed} the set is exact without a re-check). Single Redis node only.
 * KEYS[1..4] as {@link ackInbox}; KEYS[5] that set. ARGV[1] the conversation id, then
 * the item ids. Returns the number of items left.
 */
export const ackInboxIndexed = new RedisScript(`${ackLua(2)}
if left == 0 then redis.call('ZREM', KEYS[5], ARGV[1]) end
return left
`);

/**
 * Adds or replaces a timer (clearing any claim).
 * KEYS[1] due zset; KEYS[2] id -> record JSON; KEYS[3] id -> dueAt.
 * ARGV[1] id; ARGV[2] dueAt; ARGV[3] record JSON.
 */
export const scheduleTimer = new RedisScript(`
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 1
`);

/** Removes a timer. KEYS as {@link scheduleTimer}; ARGV[1] id. */
export const cancelTimer = new RedisScript(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`);

/**
 * Claims due timers: those scored <= now (due, or whose claim expired) are re-scored to
 * the end of the new claim. KEYS[1] due zset; KEYS[2] id -> record JSON.
 * ARGV[1] now; ARGV[2] limit (> 0); ARGV[3] claim end (now + claimMs).
 * Returns the claimed records' JSON in due order.
 */
export const claimDueTimers = new RedisScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then return {} end
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[3], id) end
return redis.call('HMGET', KEYS[2], unpack(ids))
`);

/**
 * Removes a fired timer unless it was rescheduled. KEYS as {@link scheduleTimer}.
 * ARGV[1] id; ARGV[2] the dueAt that fired.
 */
export const completeTimer = new RedisScript(`
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`);

/** The body of {@link acquireLease} without its answer: leaves `token` set, or returns nil. */
const acquireLua = `
local cur = redis.call('HMGET', KEYS[1], 'owner', 'token', 'exp')
local owner = cur[1] or ''
local token = tonumber(cur[2] or '0')
if owner ~= '' and owner ~= ARGV[1] and tonumber(cur[3] or '0') > tonumber(ARGV[2]) then
  return false
end
-- The same owner keeps its token while nobody else took the lease.
if owner ~= ARGV[1] then
  token = math.max(token + 1, math.floor(tonumber(ARGV[2])))
  redis.call('HSET', KEYS[1], 'token', string.format('%d', token))
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'exp', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
`;

/**
 * Takes or renews a lease. The token only grows: a new one is max(last + 1, now), so it
 * stays above every earlier token also after the hash expired (kept for a grace after
 * the lease's expiry, then garbage-collected).
 * KEYS[1] lease hash (owner, token, exp). ARGV[1] owner; ARGV[2] now; ARGV[3] expiry;
 * ARGV[4] real TTL in ms (expiry - now + grace).
 * Returns the token, or nil when another owner holds an unexpired lease.
 */
export const acquireLease = new RedisScript(`${acquireLua}return token
`);

/**
 * The body of {@link releaseLease} without its answer, for the lease hash KEYS[key],
 * the owner ARGV[owner] and the grace ARGV[owner + 1].
 */
const releaseLuaAt = (key: number, owner: number): string => `
if redis.call('HGET', KEYS[${key}], 'owner') == ARGV[${owner}] then
  redis.call('HSET', KEYS[${key}], 'owner', '', 'exp', '0')
  redis.call('PEXPIRE', KEYS[${key}], ARGV[${owner + 1}])
end
`;
const releaseLua = releaseLuaAt(1, 1);

/**
 * Releases a lease held by ARGV[1] (keeps the token for the grace). KEYS[1] lease hash;
 * ARGV[2] grace in ms.
 */
export const releaseLease = new RedisScript(`${releaseLua}return 1
`);

/**
 * {@link acquireLease} of a conversation's lease, then its first inbox item and its
 * document's version, in one script. KEYS[1] the lease hash; KEYS[2] the inbox zset;
 * KEYS[3] its member -> JSON hash; KEYS[4] the document hash (one slot). ARGV as
 * {@link acquireLease}. Returns nil when another owner holds the lease, else { token,
 * document version or nil, its expiry or nil, 1 when the inbox has an item (else 0),
 * that item's JSON or nil }.
 */
export const acquireConversation =
  new RedisScript(`${acquireLua}local doc = redis.call('HMGET', KEYS[4], 'v', 'e')
local first = redis.call('ZRANGE', KEYS[2], 0, 0)
if #first == 0 then return { token, doc[1], doc[2], 0, false } end
return { token, doc[1], doc[2], 1, redis.call('HGET', KEYS[3], first[1]) }
`);

/**
 * {@link releaseLease} of a conversation's lease, then the size of its inbox, in one
 * script. KEYS[1] the lease hash; KEYS[2] the inbox zset (one slot). ARGV as
 * {@link releaseLease}. Returns the number of items in the inbox.
 */
export const releaseConversation = new RedisScript(`${releaseLua}return redis.call('ZCARD', KEYS[2])
`);

/**
 * {@link ackInbox}, then, when the inbox is empty, {@link releaseLease} of the
 * conversation's lease, in one script. KEYS[1..4] as {@link ackInbox}; KEYS[5] the lease
 * hash (one slot). ARGV[1] the owner; ARGV[2] the lease grace in ms; then the item ids.
 * Returns the number of items left (0: released).
 */
export const ackAndRelease = new RedisScript(`${ackLua(3)}
if left == 0 then${releaseLuaAt(5, 1)}end
return left
`);

/**
 * {@link ackAndRelease} that also keeps the set of conversations with an inbox exact, as
 * {@link ackInboxIndexed} does. Single Redis node only. KEYS[1..5] as
 * {@link ackAndRelease}; KEYS[6] that set. ARGV[1] the owner; ARGV[2] the grace; ARGV[3]
 * the conversation id; then the item ids. Returns the number of items left.
 */
export const ackAndReleaseIndexed = new RedisScript(`${ackLua(4)}
if left == 0 then${releaseLuaAt(5, 1)}  redis.call('ZREM', KEYS[6], ARGV[3])
end
return left
`);

/**
 * First writer wins: stores the value envelope unless the key holds an unexpired one.
 * KEYS[1] the value key. ARGV[1] the envelope `{"e":null,"v":…}`; ARGV[2] now.
 * Returns the envelope stored afterwards (the one found, or ARGV[1]). Text that is not an
 * envelope is returned as it is, for the store to report as corrupt.
 */
export const setValueIfAbsent = new RedisScript(`
local cur = redis.call('GET', KEYS[1])
if cur then
  local ok, stored = pcall(cjson.decode, cur)
  if not ok or type(stored) ~= 'table' then return cur end
  local e = stored['e']
  if e == nil or e == cjson.null or tonumber(e) == nil or tonumber(e) > tonumber(ARGV[2]) then
    return cur
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`);
