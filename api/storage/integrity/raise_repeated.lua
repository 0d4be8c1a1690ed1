-- Name a table's shoe a repeat, unless it was named already (by the watch in the lobby script,
-- or before): a `repeated_shoe` alert to the alert stream and the table's findings.
-- Returns 1 when raised, 0 when named already.
local repeated_key = KEYS[1]  -- table -> the shoe named a repeat
local alerts_key = KEYS[2]  -- the alert stream
local found_key = KEYS[3]  -- the table's findings
local table_id = ARGV[1]
local shoe = ARGV[2]
local data = ARGV[3]  -- JSON
local alerts_length = ARGV[4]  -- the alert stream's bound (approximate)
local found_kept = ARGV[5]  -- findings kept per table

if redis.call('HGET', repeated_key, table_id) == shoe then
  return 0
end
redis.call('HSET', repeated_key, table_id, shoe)
local id = redis.call('XADD', alerts_key, 'MAXLEN', '~', alerts_length, '*',
  'type', 'repeated_shoe', 'data', data, 'table', table_id)
redis.call('LPUSH', found_key, found_entry(id, 'repeated_shoe', data))
redis.call('LTRIM', found_key, 0, tonumber(found_kept) - 1)
return 1
