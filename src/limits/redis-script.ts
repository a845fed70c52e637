/**
 * The one Lua script every Redis take and charge runs: check and take in one atomic step on the
 * server, timed by the server's clock (so that every process of a fleet shares one clock).
 *
 * KEYS[1]: the key's sorted set of takes (sliding window; member `seq:cost`, score the time in ms);
 * KEYS[2]: the key's hash (`used`: the cost counted; `seq`: the member counter).
 * ARGV[1]: `take` or `charge`; ARGV[2]: the cost; ARGV[3]: the limit (take); ARGV[4]: the window in ms,
 * 0 for a lifetime limit. Answers `{ allowed (1 or 0), used (a string, so fractions survive) }`.
 * Nothing of the user's key reaches the script but the hashed key names: no value is ever spliced into it.
 * @internal
 */
import { createHash } from 'node:crypto';

export const LIMIT_SCRIPT = `
local cost = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local function fmt(n) return string.format('%.17g', n) end
local used = tonumber(redis.call('HGET', KEYS[2], 'used') or '0')
local now = 0
if window > 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local edge = now - window
  local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', edge)
  if #expired > 0 then
    for i = 1, #expired do
      used = used - tonumber(string.match(expired[i], ':(.*)$'))
    end
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', edge)
    if redis.call('ZCARD', KEYS[1]) == 0 then used = 0 end
    redis.call('HSET', KEYS[2], 'used', fmt(used))
  end
end
if ARGV[1] == 'take' then
  local over
  if cost > 0 then over = used + cost > limit else over = used >= limit end
  if over then return {0, fmt(used)} end
end
if cost > 0 then
  used = used + cost
  redis.call('HSET', KEYS[2], 'used', fmt(used))
  if window > 0 then
    local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
    redis.call('ZADD', KEYS[1], now, seq .. ':' .. ARGV[2])
    redis.call('PEXPIRE', KEYS[1], window)
    redis.call('PEXPIRE', KEYS[2], window)
  end
end
return {1, fmt(used)}
`;

/** The script's SHA-1: what EVALSHA names it by once the server has it (Redis's own script cache key). */
export const LIMIT_SCRIPT_SHA1 = createHash('sha1').update(LIMIT_SCRIPT, 'utf8').digest('hex');
