-- Name a table and set its variant and limits (its meta version raised); a retired table is
-- back. Logged for the record, the limits with them when it has some.
-- Returns 1.
local meta_key = KEYS[1]  -- the table's meta
local log_key = KEYS[2]  -- the table's log of writes, for the record
local name = ARGV[1]
local variant = ARGV[2]
local at = ARGV[3]  -- the log's: milliseconds, '' while the record is off
local by = ARGV[4]  -- the name of the key that made the write, for the log
local limits = ARGV[5]  -- the table's limits (JSON, api/codecs/tablestatus.py), '' for none

redis.call('HSET', meta_key, 'name', name, 'variant', variant)
if limits == '' then
  redis.call('HDEL', meta_key, 'limits')
else
  redis.call('HSET', meta_key, 'limits', limits)
end
redis.call('HINCRBY', meta_key, 'mver', 1)
redis.call('HDEL', meta_key, 'retired')
log_table(meta_key, log_key, at, by, name, variant, limits)
return 1
