"""The Lua scripts that commit writes atomically, one round trip each.

Every script checks the shoe's version it was computed against (optimistic concurrency): when
another writer got there first it changes nothing and reports the current version, and the
caller reads again and retries. All keys a script touches are passed in KEYS and share the
table's hash tag, so each script runs on one Redis Cluster slot.
"""

# KEYS: table meta, shoe info, shoe rounds, shoe state, table shoes
# ARGV: shoe id, expected version, expected count, record JSON, state bytes, state TTL,
#       version channel, version message prefix ("table\x1fshoe\x1f")
APPEND_ROUND = """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local count = redis.call('LLEN', KEYS[3])
if version ~= tonumber(ARGV[2]) or count ~= tonumber(ARGV[3]) then
  return {0, version, count}
end
local current = redis.call('HGET', KEYS[1], 'current')
if count == 0 then
  -- The first round of a new shoe makes it the table's current shoe.
  redis.call('HSET', KEYS[1], 'current', ARGV[1])
  redis.call('RPUSH', KEYS[5], ARGV[1])
elseif current ~= ARGV[1] then
  return {-1, version, count}
end
redis.call('RPUSH', KEYS[3], ARGV[4])
version = version + 1
redis.call('HSET', KEYS[2], 'version', version, 'rounds', count + 1)
redis.call('SET', KEYS[4], version .. ':' .. ARGV[5], 'EX', tonumber(ARGV[6]))
redis.call('PUBLISH', ARGV[7], ARGV[8] .. version)
return {1, version, count + 1}
"""

# KEYS: shoe info, shoe rounds, shoe state
# ARGV: expected version, round index (0-based), record JSON, state bytes, state TTL,
#       1 when the change voids the round (counted in the shoe's ``void``), else 0,
#       version channel, version message prefix
REPLACE_ROUND = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {0, version}
end
redis.call('LSET', KEYS[2], tonumber(ARGV[2]), ARGV[3])
version = version + 1
redis.call('HSET', KEYS[1], 'version', version)
redis.call('HINCRBY', KEYS[1], 'void', tonumber(ARGV[6]))
redis.call('SET', KEYS[3], version .. ':' .. ARGV[4], 'EX', tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[7], ARGV[8] .. version)
return {1, version}
"""

# KEYS: shoe info, shoe state
# ARGV: version the state was built at, state bytes, state TTL
# Stores a rebuilt state only if the shoe is still at that version.
STORE_STATE = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
"""

# KEYS: shoe info, cached response
# Reads a shoe's version and one cached response in one command. No transaction is needed: the
# cached value carries the version it was built at, and the caller uses it only at that version.
READ_CACHED = """
return {redis.call('HGET', KEYS[1], 'version'), redis.call('GET', KEYS[2])}
"""
