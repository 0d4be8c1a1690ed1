-- Bring back a table whose meta Redis lost, from the record: its name, pay tables (in force and
-- waiting), limits,
-- current shoe, retired mark and shoe list, its log number at the record's, and its write
-- sequence and meta version raised to the margin (api/storage/coldshoes.py says why).
-- Returns 1 when restored, 0 when the table is here (nothing is changed).
local meta_key = KEYS[1]  -- the table's meta
local shoes_key = KEYS[2]  -- the table's shoe list
local name = ARGV[1]  -- '' none
local variant = ARGV[2]  -- the pay table in force
local next_variant = ARGV[3]  -- the pay table waiting for the next shoe (put_table.lua), '' none
local limits = ARGV[4]  -- JSON (api/codecs/tablestatus.py), '' none
local current = ARGV[5]  -- the current shoe, '' none
local retired = ARGV[6]  -- '1' or '0'
local logged = ARGV[7]  -- the last log number the record holds
local margin = ARGV[8]  -- the time of the restore in seconds
local shoes = rest(ARGV, 9)  -- the shoe ids, oldest first

if redis.call('EXISTS', meta_key) == 1 then
  return 0
end
redis.call('HSET', meta_key, 'variant', variant, 'logged', logged, 'seq', margin,
  'margin', margin, 'mver', margin)
if name ~= '' then redis.call('HSET', meta_key, 'name', name) end
if limits ~= '' then redis.call('HSET', meta_key, 'limits', limits) end
if next_variant ~= '' then redis.call('HSET', meta_key, 'next_variant', next_variant) end
if current ~= '' then redis.call('HSET', meta_key, 'current', current) end
if retired == '1' then redis.call('HSET', meta_key, 'retired', '1') end
redis.call('DEL', shoes_key)
if #shoes > 0 then
  redis.call('RPUSH', shoes_key, unpack(shoes))
end
return 1
