-- Mark a table retired and raise the version of each of its shoes still in Redis (published as
-- a write's is), so no answer built before the mark is served again; logged for the record.
-- Retiring a retired table changes nothing.
-- Returns {0} for an unknown table; {2} when the shoe list is no longer the one passed (read it
-- again); {1} when it was retired already; else {1, shoe, version, ...} of each shoe raised (a
-- shoe that has left Redis for the record is not raised: it has no cached answers).
local meta_key = KEYS[1]  -- the table's meta
local shoes_key = KEYS[2]  -- the table's shoe list
local log_key = KEYS[3]  -- the table's log of writes, for the record
local channel = ARGV[1]  -- where the version messages go
local table_id = ARGV[2]
local at = ARGV[3]  -- the log's: milliseconds, '' while the record is off
local by = ARGV[4]  -- the name of the key that retired it, for the log
local info_keys = rest(KEYS, 4)  -- the version of each shoe in the list, in its order
local shoes = rest(ARGV, 5)  -- each shoe id in the list, in its order

if redis.call('EXISTS', meta_key) == 0 then
  return {0}
end
if redis.call('LLEN', shoes_key) ~= #info_keys then
  return {2}
end
if redis.call('HSETNX', meta_key, 'retired', '1') == 0 then
  return {1}
end
local current = redis.call('HGET', meta_key, 'current')
local seq = redis.call('HINCRBY', meta_key, 'seq', 1)
local reply = {1}
local raised = {}
for i, info_key in ipairs(info_keys) do
  local shoe = shoes[i]
  if redis.call('EXISTS', info_key) == 1 then
    local version = redis.call('HINCRBY', info_key, 'version', 1)
    redis.call('PUBLISH', channel, version_message(table_id, shoe, version, shoe == current, seq))
    reply[#reply + 1] = shoe
    reply[#reply + 1] = version
    raised[#raised + 1] = {shoe, version}
  end
end
log_retire(meta_key, log_key, at, by, raised)
return reply
