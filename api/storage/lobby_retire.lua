-- Take a table out of the lobby: its tile, status, dealer, shoe facts, Good Roads, edges and runs; its
-- registry entry kept aside for the round that starts it again; a `retired` event on its
-- channel and the lobby's.
-- Returns 0 when the lobby does not list the table, else 1.
local tables_key = KEYS[1]  -- the lobby's registry: table -> its entry
local summaries_key = KEYS[2]  -- table -> its tile summary
local shapes_key = KEYS[3]  -- table -> its Big Road shape
local matched_key = KEYS[4]  -- table -> the patterns it matches
local edges_key = KEYS[5]  -- table -> the bets with an edge
local seq_key = KEYS[6]  -- the lobby's sequence counter
local events_key = KEYS[7]  -- the event stream the feeds read
local retired_key = KEYS[8]  -- retired tables' registry entries
local last_of_key = KEYS[9]  -- table -> its newest event id
-- Each lobby road's "grown" hash (roads.lobby.LOBBY_ROADS).
local big_road_grown_key = KEYS[10]
local big_eye_boy_grown_key = KEYS[11]
local small_road_grown_key = KEYS[12]
local cockroach_road_grown_key = KEYS[13]
local statuses_key = KEYS[14]  -- table -> its stored status (a table back is open again)
local dealers_key = KEYS[15]  -- table -> its current dealer
local shoe_facts_key = KEYS[16]  -- table -> what the studio reported of its shoe
local table_id = ARGV[1]
local stream_length = ARGV[2]  -- the event stream's bound (approximate)
local member_keys = rest(KEYS, 17)  -- each pattern's members

local entry = redis.call('HGET', tables_key, table_id)
if not entry then
  return 0
end
redis.call('HSET', retired_key, table_id, entry)
local left = {tables_key, summaries_key, shapes_key, matched_key, edges_key, big_road_grown_key,
  big_eye_boy_grown_key, small_road_grown_key, cockroach_road_grown_key, statuses_key,
  dealers_key, shoe_facts_key, unpack(member_keys)}
for _, key in ipairs(left) do
  redis.call('HDEL', key, table_id)
end
redis.call('INCR', seq_key)
local prev = redis.call('HGET', last_of_key, table_id) or ''
local id = redis.call('XADD', events_key, 'MAXLEN', '~', tonumber(stream_length), '*',
  'type', 'retired', 'data', cjson.encode({table = table_id}), 'table', table_id, 'prev', prev)
redis.call('HSET', last_of_key, table_id, id)
return 1
