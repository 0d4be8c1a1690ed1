-- A shoe's version and one cached answer, in one command (no claim; no transaction is needed:
-- the cached value carries the version it was built at).
local info_key = KEYS[1]  -- the shoe's version
local cache_key = KEYS[2]  -- the answer, stamped

return {redis.call('HGET', info_key, 'version'), redis.call('GET', cache_key)}
