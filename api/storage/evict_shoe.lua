-- Take a shoe out of Redis if it is closed (not the table's current shoe) and the record holds
-- all of it: every write raises the shoe's version, so the record holds all of the shoe when
-- its versions are equal (a table restored after a loss adds its margin to the versions).
-- Its game ids leave the table's games with it.
-- Returns {1}: gone; {0}: kept (the table's current shoe, or a write the record does not hold
-- yet); {2}: not here.
local meta_key = KEYS[1]  -- the table's meta ('current', 'margin')
local info_key = KEYS[2]  -- the shoe's version
local rounds_key = KEYS[3]  -- the shoe's rounds
local state_key = KEYS[4]  -- the shoe's scorecard state
local games_key = KEYS[5]  -- the table's game ids: game id -> SHOE:N
local shoe = ARGV[1]
local recorded = ARGV[2]  -- the shoe's version in the record

local meta = redis.call('HMGET', meta_key, 'current', 'margin')
if meta[1] == shoe then
  return {0}
end
local version = redis.call('HGET', info_key, 'version')
if not version then
  return {2}
end
local here, held = tonumber(version), tonumber(recorded)
if here ~= held and here ~= held + tonumber(meta[2] or '0') then
  return {0}
end
drop_games(games_key, shoe, redis.call('LRANGE', rounds_key, 0, -1))
redis.call('DEL', info_key, rounds_key, state_key)
return {1}
