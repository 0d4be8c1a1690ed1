-- Keep the cards burned from a shoe before its first round in the table's meta, for that round to
-- take (append_round.lua; api/codecs/roundfacts.py): only while the shoe has no round and the
-- meta keeps what the caller read.
-- Returns 1 when kept, 0 when the shoe has a round or the kept cards changed (read again), -1
-- when the table has no meta (kept nowhere: a meta of this field alone would hide the table
-- from its restore).
local meta_key = KEYS[1]  -- the table's meta ('burn_pending')
local rounds_key = KEYS[2]  -- the shoe's rounds
local expected = ARGV[1]  -- what the meta kept when read ('': nothing)
local pending = ARGV[2]  -- what it keeps from now on

if redis.call('EXISTS', meta_key) == 0 then
  return -1
end
if redis.call('LLEN', rounds_key) > 0
    or (redis.call('HGET', meta_key, 'burn_pending') or '') ~= expected then
  return 0
end
redis.call('HSET', meta_key, 'burn_pending', pending)
return 1
