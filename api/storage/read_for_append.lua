-- What an append is computed from, read at one instant in one command: the table's current
-- shoe and variant, the shoe's version, its round count and its cached state (stamped with any
-- version, api/codecs/stamps.lua), and the cards the table's meta keeps as burned before a
-- shoe's first round (api/codecs/roundfacts.py), and the pay table waiting for the next shoe
-- (put_table.lua).
-- Returns {current, variant, version, count, state, burned before, next variant},
-- false for each one missing (false, not nil: a nil would end the reply there).
local meta_key = KEYS[1]  -- the table's meta ('current', 'variant')
local info_key = KEYS[2]  -- the shoe's version
local rounds_key = KEYS[3]  -- the shoe's rounds
local state_key = KEYS[4]  -- the shoe's scorecard state, stamped

local meta = redis.call('HMGET', meta_key, 'current', 'variant', 'burn_pending', 'next_variant')
return {meta[1] or false, meta[2] or false, redis.call('HGET', info_key, 'version') or false,
  redis.call('LLEN', rounds_key), redis.call('GET', state_key) or false, meta[3] or false,
  meta[4] or false}
