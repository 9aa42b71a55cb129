-- One RateLimitStore.read (see core's RateLimitStore): the counts and the ban, changing nothing.
-- KEYS[1..n]: the counter of each window; KEYS[n+1]: the subject's strike and ban record. ARGV: now (epoch ms).
-- Returns { bannedUntil or 0, count1, ..., countn }, read in one step so counts and ban belong together.
local now = tonumber(ARGV[1])
local n = #KEYS - 1
local reply = { 0 }
local bannedUntil = tonumber(redis.call('HGET', KEYS[n + 1], 'bannedUntil') or '0')
if bannedUntil > now then
  reply[1] = bannedUntil
end
for i = 1, n do
  reply[i + 1] = tonumber(redis.call('GET', KEYS[i]) or '0')
end
return reply
