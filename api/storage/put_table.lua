-- Name a table and set its pay table (its variant) and limits (its meta version raised); a
-- retired table is back. A shoe's rounds are priced under one pay table: while the table has a
-- current shoe, another pay table waits for the next shoe's first round (append_round.lua puts
-- it in force then; the lobby follows the pay table each write names), unless `now` says it
-- applies at once. Logged for the record, with the limits when the table has some, the pay
-- table's document when it is not a preset, and 'next_shoe' when it waits.
-- Returns {the pay table in force, the one waiting or false}.
local meta_key = KEYS[1]  -- the table's meta
local log_key = KEYS[2]  -- the table's log of writes, for the record
local name = ARGV[1]
local variant = ARGV[2]  -- the pay table's name
local at = ARGV[3]  -- the log's: milliseconds, '' while the record is off
local by = ARGV[4]  -- the name of the key that made the write, for the log
local limits = ARGV[5]  -- the table's limits (JSON, api/codecs/tablestatus.py), '' for none
local now = ARGV[6]  -- '1': the pay table applies at once, even mid-shoe
local paytable = ARGV[7]  -- the pay table's document (api/codecs/paytables.py), '' a preset's

local current, in_force = unpack(redis.call('HMGET', meta_key, 'current', 'variant'))
in_force = in_force or 'standard'
redis.call('HSET', meta_key, 'name', name)
local waiting = false
if now == '1' or not current or variant == in_force then
  redis.call('HSET', meta_key, 'variant', variant)
  redis.call('HDEL', meta_key, 'next_variant')
  in_force = variant
else
  redis.call('HSET', meta_key, 'next_variant', variant)
  waiting = variant
end
if limits == '' then
  redis.call('HDEL', meta_key, 'limits')
else
  redis.call('HSET', meta_key, 'limits', limits)
end
redis.call('HINCRBY', meta_key, 'mver', 1)
redis.call('HDEL', meta_key, 'retired')
log_table(meta_key, log_key, at, by, name, variant, limits, paytable, waiting and 'next_shoe' or '')
return {in_force, waiting}
