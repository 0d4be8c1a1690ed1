-- Let go of a lock, if `holder` holds it. Returns 1 when let go, else 0.
local lock_key = KEYS[1]
local holder = ARGV[1]

if redis.call('GET', lock_key) == holder then
  return redis.call('DEL', lock_key)
end
return 0
