-- One RateLimitStore.release (see core's RateLimitStore): one count back in each window counter, never below zero.
-- KEYS[1..n]: the counter of each window still open. Strikes and bans are not touched; a counter keeps its expiry.
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then
    redis.call('DECR', KEYS[i])
  end
end
return nil
