-- Bring back a table whose meta Redis lost, from the record: its name, variant, limits,
-- current shoe, retired mark and shoe list, its log number at the record's, and its write
-- sequence and meta version raised to the margin (api/storage/coldshoes.py says why).
-- Returns 1 when restored, 0 when the table is here (nothing is changed).
local meta_key = KEYS[1]  -- the table's meta
local shoes_key = KEYS[2]  -- the table's shoe list
local name = ARGV[1]  -- '' none
local variant = ARGV[2]
local limits = ARGV[3]  -- JSON (api/codecs/tablestatus.py), '' none
local current = ARGV[4]  -- the current shoe, '' none
local retired = ARGV[5]  -- '1' or '0'
local logged = ARGV[6]  -- the last log number the record holds
local margin = ARGV[7]  -- the time of the restore in seconds
local shoes = rest(ARGV, 8)  -- the shoe ids, oldest first

if redis.call('EXISTS', meta_key) == 1 then
  return 0
end
redis.call('HSET', meta_key, 'variant', variant, 'logged', logged, 'seq', margin,
  'margin', margin, 'mver', margin)
if name ~= '' then redis.call('HSET', meta_key, 'name', name) end
if limits ~= '' then redis.call('HSET', meta_key, 'limits', limits) end
if current ~= '' then redis.call('HSET', meta_key, 'current', current) end
if retired == '1' then redis.call('HSET', meta_key, 'retired', '1') end
redis.call('DEL', shoes_key)
if #shoes > 0 then
  redis.call('RPUSH', shoes_key, unpack(shoes))
end
return 1
