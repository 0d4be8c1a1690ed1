-- Rewrite a round of a shoe if the shoe is still at the version the plan was computed from (an
-- atomic compare-and-set): a correction, a void (counted in the shoe's 'void'), or a burn (the
-- round as it was, with the cards burned after it). With it: the
-- shoe's new version and scorecard state, the version message, the lobby update kept for a
-- retry (current when the shoe is the table's current one), the record's log entry; a retired
-- table is back.
-- Returns {1, version, seq, current (1/0)} when committed, else {0, version, 0, 0}.
local info_key = KEYS[1]  -- the shoe's version and void count
local rounds_key = KEYS[2]  -- the shoe's rounds
local state_key = KEYS[3]  -- the shoe's scorecard state, stamped
local meta_key = KEYS[4]  -- the table's meta
local lobby_update_key = KEYS[5]  -- the table's last lobby update, kept for a retry
local log_key = KEYS[6]  -- the table's log of writes, for the record
local base_version = ARGV[1]  -- the shoe's version the plan was computed from
local index = ARGV[2]  -- the round's, from 0
local record = ARGV[3]  -- the round as stored
local state = ARGV[4]  -- the shoe's scorecard state after the rewrite
local state_ttl = ARGV[5]  -- seconds
local kind = ARGV[6]  -- 'correction', 'void' or 'burn
local channel = ARGV[7]  -- where the version message goes
local table_id = ARGV[8]
local shoe = ARGV[9]
local lobby_update = ARGV[10]  -- api/codecs/lobbyupdate.py
local at = ARGV[11]  -- the log's: milliseconds, '' while the record is off
local by = ARGV[12]  -- the name of the key that made the write, for the log

local version = tonumber(redis.call('HGET', info_key, 'version') or '0')
if version ~= tonumber(base_version) then
  return {0, version, 0, 0}
end
redis.call('LSET', rounds_key, tonumber(index), record)  -- first: see append_round.lua
redis.call('HDEL', meta_key, 'retired')
version = version + 1
redis.call('HSET', info_key, 'version', version)
if kind == 'void' then
  redis.call('HINCRBY', info_key, 'void', 1)
end
redis.call('SET', state_key, stamped(version, state), 'EX', tonumber(state_ttl))
local current = redis.call('HGET', meta_key, 'current') == shoe
local seq = redis.call('HINCRBY', meta_key, 'seq', 1)
redis.call('PUBLISH', channel, version_message(table_id, shoe, version, current, seq))
redis.call('SET', lobby_update_key, stored_update(seq, current, lobby_update))
local number = tonumber(index) + 1
if kind == 'void' then
  log_void(meta_key, log_key, at, by, shoe, number, version, record)
elseif kind == 'burn' then
  log_burn(meta_key, log_key, at, by, shoe, number, version, record)
else
  log_correction(meta_key, log_key, at, by, shoe, number, version, record)
end
return {1, version, seq, current and 1 or 0}
