-- Set a table's status as the studio reports it (api/codecs/tablestatus.py): stored for its
-- tile, the lobby's cursor moved (its answers and frames change), and a `status` event on the
-- table's channel and the lobby's.
-- Returns 0 when the lobby does not list the table (never named, or retired), else 1.
local tables_key = KEYS[1]  -- the lobby's registry: table -> its entry
local statuses_key = KEYS[2]  -- table -> its stored status
local seq_key = KEYS[3]  -- the lobby's sequence counter
local events_key = KEYS[4]  -- the event stream the feeds read
local last_of_key = KEYS[5]  -- table -> its newest event id
local table_id = ARGV[1]
local stored = ARGV[2]  -- the status as the tile shows it (JSON)
local data = ARGV[3]  -- the event's data (JSON)
local stream_length = ARGV[4]  -- the event stream's bound (approximate)

if redis.call('HEXISTS', tables_key, table_id) == 0 then
  return 0
end
redis.call('HSET', statuses_key, table_id, stored)
redis.call('INCR', seq_key)
local prev = redis.call('HGET', last_of_key, table_id) or ''
local id = redis.call('XADD', events_key, 'MAXLEN', '~', tonumber(stream_length), '*',
  'type', 'status', 'data', data, 'table', table_id, 'prev', prev)
redis.call('HSET', last_of_key, table_id, id)
return 1
