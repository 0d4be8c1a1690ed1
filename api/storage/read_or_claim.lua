-- A read's one round trip: the shoe's version and the answer cached at it; when there is none,
-- the claim to build it (refused while another request holds the claim for this version) and,
-- with the claim, the shoe's cached state. A retired table's shoes are not read.
-- Returns {false, 1}: the table is retired; {false}: no such shoe; {version, answer};
-- {version, false, 0}: another request builds it; {version, false, 1, state or false}: claimed.
local info_key = KEYS[1]  -- the shoe's version
local cache_key = KEYS[2]  -- the answer, stamped with the version it was built at
local claim_key = KEYS[3]  -- who builds the answer at a version
local state_key = KEYS[4]  -- the shoe's scorecard state, stamped
local meta_key = KEYS[5]  -- the table's meta ('retired')
local claim_ms = ARGV[1]  -- how long a claim holds

if redis.call('HEXISTS', meta_key, 'retired') == 1 then
  return {false, 1}
end
local version = redis.call('HGET', info_key, 'version')
if not version then
  return {false}
end
local cached = redis.call('GET', cache_key)
if is_stamped(cached, version) then
  return {version, cached}
end
if redis.call('GET', claim_key) == version then
  return {version, false, 0}
end
redis.call('SET', claim_key, version, 'PX', tonumber(claim_ms))
return {version, false, 1, redis.call('GET', state_key) or false}
