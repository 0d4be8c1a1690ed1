-- An event on a table's channel and the lobby's that changes no tile (a studio event between
-- rounds: api/codecs/studioevents.py), named by the table's event before it as every event is.
-- Returns 0 when the lobby does not list the table (never named, or retired), else 1.
local tables_key = KEYS[1]  -- the lobby's registry: table -> its entry
local events_key = KEYS[2]  -- the event stream the feeds read
local last_of_key = KEYS[3]  -- table -> its newest event id
local table_id = ARGV[1]
local kind = ARGV[2]  -- the event's type
local data = ARGV[3]  -- the event's data (JSON)
local stream_length = ARGV[4]  -- the event stream's bound (approximate)

if redis.call('HEXISTS', tables_key, table_id) == 0 then
  return 0
end
local prev = redis.call('HGET', last_of_key, table_id) or ''
local id = redis.call('XADD', events_key, 'MAXLEN', '~', tonumber(stream_length), '*',
  'type', kind, 'data', data, 'table', table_id, 'prev', prev)
redis.call('HSET', last_of_key, table_id, id)
return 1
