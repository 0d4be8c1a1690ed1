-- Bring a shoe back from the record: its rounds, version and void count, unless it is here
-- already or the table's margin is no longer the one its version was raised by (the table was
-- restored again meanwhile). Its game ids map to its rounds again, unless another round took
-- one meanwhile. Returns 1 when brought back, else 0.
local meta_key = KEYS[1]  -- the table's meta ('margin')
local info_key = KEYS[2]  -- the shoe's version, round and void counts
local rounds_key = KEYS[3]  -- the shoe's rounds
local games_key = KEYS[4]  -- the table's game ids: game id -> SHOE:N
local shoe = ARGV[1]
local margin = ARGV[2]  -- the table's margin as read
local version = ARGV[3]  -- the shoe's version in the record, the margin added
local voids = ARGV[4]  -- how many of its rounds are void
local records = rest(ARGV, 5)  -- each round as stored, in order

if redis.call('EXISTS', info_key) == 1
    or (redis.call('HGET', meta_key, 'margin') or '0') ~= margin then
  return 0
end
if #records > 0 then
  redis.call('RPUSH', rounds_key, unpack(records))
end
redis.call('HSET', info_key, 'version', version, 'rounds', #records, 'void', voids)
add_games(games_key, shoe, records)
return 1
