-- One atomic RateLimitStore.consume (see core's RateLimitStore for the semantics).
-- KEYS[1..n]: the counter of each window; KEYS[n+1]: the subject's strike and ban record.
-- ARGV: now, n, then limit and resetAt of each window, then the ban's strikes, duration (ms) and strike interval (ms),
-- then the deadline.
-- Times in epoch ms. Returns { outcome, retryAt or bannedUntil or 0, count1, ..., countn }, or { 'late', 0 } when
-- Redis starts the script after its deadline (read on Redis's own clock): then nothing is read or written, because
-- the caller has already answered 503 and a late count would spend quota and earn strikes the client never saw.
local n = tonumber(ARGV[2])
local deadline = tonumber(ARGV[6 + 2 * n])
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > deadline then
  return { 'late', 0 }
end

local now = tonumber(ARGV[1])
local strikesToBan = tonumber(ARGV[3 + 2 * n])
local banMs = tonumber(ARGV[4 + 2 * n])
local strikeIntervalMs = tonumber(ARGV[5 + 2 * n])
local record = KEYS[n + 1]

local counts = {}
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
end

local bannedUntil = tonumber(redis.call('HGET', record, 'bannedUntil') or '0')
if bannedUntil > now then
  return { 'banned', bannedUntil, unpack(counts) }
end

local retryAt = 0
for i = 1, n do
  local limit = tonumber(ARGV[1 + 2 * i])
  local resetAt = tonumber(ARGV[2 + 2 * i])
  if counts[i] >= limit and resetAt > retryAt then
    retryAt = resetAt
  end
end

if retryAt == 0 then
  for i = 1, n do
    local resetAt = tonumber(ARGV[2 + 2 * i])
    counts[i] = redis.call('INCR', KEYS[i])
    -- Relative expiry from the caller's clock, so the key lives exactly as long as its window.
    redis.call('PEXPIRE', KEYS[i], resetAt - now + 1000)
  end
  return { 'admitted', 0, unpack(counts) }
end

local strikeUntil = tonumber(redis.call('HGET', record, 'strikeUntil') or '0')
local strikes = 0
local struckAt = now
if strikeUntil > now then
  -- Within the episode: a strike only once the interval has passed since the last one (a burst is not a strike).
  strikes = tonumber(redis.call('HGET', record, 'strikes') or '0')
  local lastStruckAt = tonumber(redis.call('HGET', record, 'struckAt') or '0')
  if now - lastStruckAt >= strikeIntervalMs then
    strikes = strikes + 1
  else
    return { 'rejected', retryAt, unpack(counts) }
  end
else
  strikeUntil = retryAt
end

if strikes >= strikesToBan then
  bannedUntil = now + banMs
  redis.call('HSET', record, 'strikes', 0, 'strikeUntil', 0, 'struckAt', 0, 'bannedUntil', bannedUntil)
  redis.call('PEXPIRE', record, banMs + 1000)
  return { 'banned', bannedUntil, unpack(counts) }
end

redis.call('HSET', record, 'strikes', strikes, 'strikeUntil', strikeUntil, 'struckAt', struckAt, 'bannedUntil', 0)
redis.call('PEXPIRE', record, strikeUntil - now + 1000)
return { 'rejected', retryAt, unpack(counts) }
