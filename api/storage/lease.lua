-- Take a lease for `holder`, or renew it, for `ttl_ms` (api/storage/leases.py): set only while
-- nobody else holds it.
-- Returns 0 while another holder has it, 1 when renewed, 2 when taken.
local lease_key = KEYS[1]  -- the lease: its holder's name, with a TTL
local holder = ARGV[1]
local ttl_ms = ARGV[2]

local held_by = redis.call('GET', lease_key)
if held_by and held_by ~= holder then return 0 end
redis.call('SET', lease_key, holder, 'PX', ttl_ms)
if held_by then return 1 end
return 2
