-- Cache a shoe's scorecard state built at a version, if the shoe is still at that version.
-- Returns 1 when stored, 0 when the shoe moved on.
local info_key = KEYS[1]  -- the shoe's version
local state_key = KEYS[2]  -- the shoe's scorecard state, stamped
local version = ARGV[1]  -- the version the state was built at
local state = ARGV[2]
local state_ttl = ARGV[3]  -- seconds

if tonumber(redis.call('HGET', info_key, 'version') or '0') ~= tonumber(version) then
  return 0
end
redis.call('SET', state_key, stamped(version, state), 'EX', tonumber(state_ttl))
return 1
