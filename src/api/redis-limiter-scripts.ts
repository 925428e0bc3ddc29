/**
 * The Lua scripts of {@link RedisLimiter}. Times are epoch milliseconds from the callers'
 * clocks (ARGV), never Redis TIME: tests stay deterministic, and workers must keep their
 * clocks roughly synchronised (NTP). Real key TTLs only collect garbage.
 */
import { RedisScript } from '../store/redis-script.js';

/**
 * All-or-nothing take over several sliding-window logs.
 * KEYS[1..n] the log zset of each rule (member: a unique take id, score: take time);
 * KEYS[n+1..2n] the block key of each rule (value: blocked-until, epoch ms).
 * ARGV[1] now; ARGV[2] unique member for this take; ARGV[3] GC grace in ms;
 * then per rule i: ARGV[2+2i] limit, ARGV[3+2i] windowMs.
 * A log counts takes at t with t > now - windowMs. Returns 0 when one unit was taken from
 * every rule, else the wait in ms until every rule has room and no block applies
 * (nothing is consumed then).
 */
export const takeAll = new RedisScript(`
local now = tonumber(ARGV[1])
local n = #KEYS / 2
local wait = 0
for i = 1, n do
  local log, block = KEYS[i], KEYS[n + i]
  local limit, window = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
  local blocked_until = tonumber(redis.call('GET', block) or '0')
  if blocked_until > now then wait = math.max(wait, blocked_until - now) end
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
  local count = redis.call('ZCARD', log)
  if count >= limit then
    -- The take that must leave the window before this one fits.
    local oldest = redis.call('ZRANGE', log, count - limit, count - limit, 'WITHSCORES')
    if oldest[2] then wait = math.max(wait, tonumber(oldest[2]) + window - now) end
  end
end
-- Rounded up: a fractional wait must not read as 0 (taken).
if wait > 0 then return math.ceil(wait) end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[3 + 2 * i]) + tonumber(ARGV[3]))
end
return 0
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
