/**
 * The Lua scripts of {@link RedisLimiter}. Times are epoch milliseconds from the callers'
 * clocks (ARGV), never Redis TIME: tests stay deterministic, and workers must keep their
 * clocks roughly synchronised (NTP). Real key TTLs only collect garbage.
 */
import { RedisScript } from '../store/redis-script.js';

/**
 * All-or-nothing take over several sliding-window logs.
 * KEYS[1..n] the log zset of each rule (member: a unique take id, the ticket; score: the
 * completion time, or while in flight the in-flight bound);
 * KEYS[n+1..2n] the block key of each rule (value: blocked-until, epoch ms).
 * ARGV[1] now; ARGV[2] unique member for this take; ARGV[3] GC grace in ms;
 * ARGV[4] in-flight bound (score of the new entries, > now);
 * then per rule i: ARGV[3+2i] limit, ARGV[4+2i] windowMs; then ARGV[5+2n] the index of
 * the rule shared fairly (0: none), ARGV[6+2n] the member taking from it, and
 * KEYS[2n+1] its demand zset (member -> time it last asked, or for a refused member the
 * time it will ask again). The shared rule's entries
 * are named `<member>|<ticket>`; the rule of fair-share.ts applies to it.
 * A log counts entries at t with t > now - windowMs; in-flight entries lie in the future,
 * so they count in every window. Returns 0 when one unit was taken from every rule, else
 * the wait in ms until every rule has room and no block applies (nothing is consumed
 * then): exact for completed entries, the least possible one (completion now) for
 * in-flight entries.
 */
export const takeAll = new RedisScript(`
local now = tonumber(ARGV[1])
local n = math.floor(#KEYS / 2)
local wait = 0
local shared = tonumber(ARGV[5 + 2 * n] or '0')
local member = ARGV[6 + 2 * n]
local function owner(entry) return string.match(entry, '^([^|]*)|') or '' end
for i = 1, n do
  local log, block = KEYS[i], KEYS[n + i]
  local limit, window = tonumber(ARGV[3 + 2 * i]), tonumber(ARGV[4 + 2 * i])
  local blocked_until = tonumber(redis.call('GET', block) or '0')
  if blocked_until > now then wait = math.max(wait, blocked_until - now) end
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
  local count = redis.call('ZCARD', log)
  if count >= limit then
    -- The entry that must leave the window before this one fits.
    local oldest = redis.call('ZRANGE', log, count - limit, count - limit, 'WITHSCORES')
    if oldest[2] then
      wait = math.max(wait, math.min(tonumber(oldest[2]), now) + window - now)
    end
  end
  if i == shared then
    -- A refused member asks too: its reservation holds from its first refusal on.
    local demand = KEYS[2 * n + 1]
    redis.call('ZADD', demand, 'GT', now, member)
    redis.call('ZREMRANGEBYSCORE', demand, '-inf', now - window)
    redis.call('PEXPIRE', demand, math.ceil(2 * window + tonumber(ARGV[3])))
    if count < limit then
      local active = redis.call('ZRANGE', demand, 0, -1)
      local share = math.floor(limit / math.max(1, #active))
      local entries = redis.call('ZRANGE', log, 0, -1, 'WITHSCORES')
      local used = {}
      for j = 1, #entries, 2 do
        local o = owner(entries[j])
        used[o] = (used[o] or 0) + 1
      end
      local owed = 0
      for _, a in ipairs(active) do
        if a ~= member then owed = owed + math.max(0, share - (used[a] or 0)) end
      end
      if count + 1 + owed > limit then
        local w = window
        for j = 1, #entries, 2 do
          local o = owner(entries[j])
          if o == member or (used[o] or 0) > share then
            w = math.min(tonumber(entries[j + 1]), now) + window - now
            break
          end
        end
        wait = math.max(wait, math.max(1, w))
      end
    end
  end
end
-- Rounded up: a fractional wait must not read as 0 (taken).
if wait > 0 then
  -- A refused member stays active until a window after it asks again.
  if shared > 0 then redis.call('ZADD', KEYS[2 * n + 1], 'GT', now + wait, member) end
  return math.ceil(wait)
end
local until_ms, grace = tonumber(ARGV[4]), tonumber(ARGV[3])
for i = 1, n do
  local name = ARGV[2]
  if i == shared then name = member .. '|' .. ARGV[2] end
  redis.call('ZADD', KEYS[i], until_ms, name)
  -- Only ever lengthen the TTL: other entries may be in flight for longer.
  local want = math.ceil(until_ms - now + tonumber(ARGV[4 + 2 * i]) + grace)
  if redis.call('PTTL', KEYS[i]) < want then redis.call('PEXPIRE', KEYS[i], want) end
end
return 0
`);

/**
 * Settles a ticket: its entry in every log gets the completion time as score.
 * KEYS: the log zsets of the rules. ARGV[1] now; ARGV[2] the ticket (member);
 * ARGV[3] GC grace in ms; then per rule i: ARGV[3+i] windowMs.
 * A log without the member (expired, or never taken) is left alone. Then ARGV[4+n] the
 * index of the rule shared fairly (0: none) and ARGV[5+n] the member that took from it
 * (its entry there is `<member>|<ticket>`). Returns the number of entries settled.
 */
export const completeTake = new RedisScript(`
local now, grace = tonumber(ARGV[1]), tonumber(ARGV[3])
local shared = tonumber(ARGV[4 + #KEYS] or '0')
local settled = 0
for i = 1, #KEYS do
  local name = ARGV[2]
  if i == shared then name = ARGV[5 + #KEYS] .. '|' .. ARGV[2] end
  if redis.call('ZSCORE', KEYS[i], name) then
    redis.call('ZADD', KEYS[i], 'XX', now, name)
    local want = math.ceil(tonumber(ARGV[3 + i]) + grace)
    if redis.call('PTTL', KEYS[i]) < want then redis.call('PEXPIRE', KEYS[i], want) end
    settled = settled + 1
  end
end
return settled
`);

/**
 * Blocks keys until a time; a shorter block never shortens a longer one.
 * KEYS: block keys. ARGV[1] blocked-until; ARGV[2] now; ARGV[3] GC grace in ms.
 */
export const blockKeys = new RedisScript(`
local until_ms, now = tonumber(ARGV[1]), tonumber(ARGV[2])
if until_ms <= now then return 0 end
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') < until_ms then
    redis.call('SET', key, ARGV[1], 'PX', math.ceil(until_ms - now) + tonumber(ARGV[3]))
  end
end
return 1
`);

/**
 * Takes one of `max` concurrent slots. KEYS[1] zset of holders scored by expiry.
 * ARGV[1] now; ARGV[2] max; ARGV[3] holder id; ARGV[4] holder expiry; ARGV[5] GC ttl ms.
 * Returns 1 when taken, 0 when all slots are held by live holders.
 */
export const acquireSlot = new RedisScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);
