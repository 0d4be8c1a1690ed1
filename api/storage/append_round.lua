-- Append a round if the shoe and its table are still what the plan was computed from (the
-- shoe's version and round count, the table's current shoe and the pay table its rounds are
-- priced under: a shoe's first round, the one waiting for it, which it puts in force): an
-- atomic compare-and-set. A round that opens the shoe makes it the table's current shoe. With the
-- round: the shoe's new version and scorecard state, the version message, the lobby update kept
-- for a retry, the record's log entry; a retired table is back.
-- A round with a game id maps it to its place, SHOE:N, in the table's games; a game id the table
-- has for another round is refused. A shoe's first round takes the cards the meta keeps as
-- burned before it (into its record: the plan put them there).
-- Returns {1, version, seq, 1} when committed, else {0, version, count, 0} (the shoe or the
-- table moved on: nothing is changed), or {2, version, count, 0, place} (the game id is the
-- round at place already: nothing is changed).
local meta_key = KEYS[1]  -- the table's meta
local info_key = KEYS[2]  -- the shoe's version and round count
local rounds_key = KEYS[3]  -- the shoe's rounds
local state_key = KEYS[4]  -- the shoe's scorecard state, stamped
local shoes_key = KEYS[5]  -- the table's shoe list
local lobby_update_key = KEYS[6]  -- the table's last lobby update, kept for a retry
local log_key = KEYS[7]  -- the table's log of writes, for the record
local games_key = KEYS[8]  -- the table's game ids: game id -> SHOE:N
local shoe = ARGV[1]
local base_version = ARGV[2]  -- the shoe's version the plan was computed from
local base_count = ARGV[3]  -- the shoe's round count the plan was computed from
local base_current = ARGV[4]  -- the table's current shoe the plan saw ('' none)
local base_variant = ARGV[5]  -- the table's variant the plan saw (the lobby's edge depends on it)
local opens = ARGV[6]  -- '1': the round opens the shoe
local record = ARGV[7]  -- the round as stored
local state = ARGV[8]  -- the shoe's scorecard state after the round
local state_ttl = ARGV[9]  -- seconds
local channel = ARGV[10]  -- where the version message goes
local table_id = ARGV[11]
local lobby_update = ARGV[12]  -- api/codecs/lobbyupdate.py
local at = ARGV[13]  -- the log's: milliseconds, '' while the record is off
local by = ARGV[14]  -- the name of the key that made the write, for the log
local game_id = ARGV[15]  -- the round's game id ('' none)
-- The cards burned before the shoe's first round the plan took, as the meta kept them ('' none).
local burned_before = ARGV[16]

local version = tonumber(redis.call('HGET', info_key, 'version') or '0')
local count = redis.call('LLEN', rounds_key)
local meta = redis.call('HMGET', meta_key, 'current', 'variant', 'burn_pending', 'next_variant')
-- A shoe's first round is priced under the pay table waiting for it, if one waits.
local waits = opens == '1' and meta[4]
local priced = waits and meta[4] or (meta[2] or 'standard')
if version ~= tonumber(base_version) or count ~= tonumber(base_count)
    or (meta[1] or '') ~= base_current or priced ~= base_variant then
  return {0, version, count, 0}
end
-- A shoe's first round takes the cards burned before it, exactly as the plan saw them.
local pending = meta[3]
if count == 0 and pending and burned_before_of(pending, shoe) then
  if pending ~= burned_before then
    return {0, version, count, 0}
  end
elseif count == 0 and burned_before ~= '' then
  return {0, version, count, 0}
end
if game_id ~= '' then
  local place = redis.call('HGET', games_key, game_id)
  if place then
    return {2, version, count, 0, place}
  end
end
-- The round first: Redis at its maxmemory refuses a script's first write that may grow memory,
-- and only its first, so no other write may come before it (HDEL would not be refused).
redis.call('RPUSH', rounds_key, record)
if opens == '1' then
  redis.call('HSET', meta_key, 'current', shoe)
  redis.call('RPUSH', shoes_key, shoe)
end
if waits then
  redis.call('HSET', meta_key, 'variant', priced)
  redis.call('HDEL', meta_key, 'next_variant')
end
redis.call('HDEL', meta_key, 'retired')
-- Taken by this round, or of a shoe that did not start: a new shoe has.
if count == 0 and pending and (burned_before ~= '' or opens == '1') then
  redis.call('HDEL', meta_key, 'burn_pending')
end
if game_id ~= '' then
  redis.call('HSET', games_key, game_id, game_place(shoe, count + 1))
end
version = version + 1
redis.call('HSET', info_key, 'version', version, 'rounds', count + 1)
redis.call('SET', state_key, stamped(version, state), 'EX', tonumber(state_ttl))
local seq = redis.call('HINCRBY', meta_key, 'seq', 1)
redis.call('PUBLISH', channel, version_message(table_id, shoe, version, true, seq))
redis.call('SET', lobby_update_key, stored_update(seq, true, lobby_update))
log_round(meta_key, log_key, at, by, shoe, count + 1, version, record, opens)
return {1, version, seq, 1}
