-- Apply a committed write's lobby update (api/codecs/lobbyupdate.py, kept as the write script
-- stored it) to the lobby-wide keys: once and in table write order, skipping an update no newer
-- than the last one applied, so a retried write may hand it over again. The Good Road and edge
-- transitions are fired here, from the membership the lobby holds (roads.lobby.transitions is
-- the rule; the tests hold this to it). With the integrity watch on, its part of the update is
-- applied in the same call (api/storage/integrity/watchapply.lua).
-- Returns {0} when the update was applied before (or none is kept), else {1, the lobby sequence
-- number, the kinds of the integrity alerts raised (comma-separated), the ids of the events
-- added...}.
local applied_key = KEYS[1]  -- table -> the write sequence number of its last update applied
local tables_key = KEYS[2]  -- the lobby's registry: table -> its entry
local summaries_key = KEYS[3]  -- table -> its tile summary (JSON)
local shapes_key = KEYS[4]  -- table -> its Big Road shape (JSON)
local matched_key = KEYS[5]  -- table -> the patterns it matches ('id=since_round,...')
local seq_key = KEYS[6]  -- the lobby's sequence counter
local events_key = KEYS[7]  -- the event stream the feeds read
local edges_key = KEYS[8]  -- table -> the bets with an edge ('bet=rtp,...')
local retired_key = KEYS[9]  -- retired tables' registry entries
local last_of_key = KEYS[10]  -- table -> its newest event id
-- The table's kept update, read when `stored` is '' (one server). When the update is passed in
-- (Redis Cluster, where this key lies in another slot) the wrapper names `applied_key` here,
-- unread.
local lobby_update_key = KEYS[11]
-- Each lobby road's "grown" hash: table -> the lobby sequence number its current run grew at
-- (roads.lobby.LOBBY_ROADS).
local big_road_grown_key = KEYS[12]
local big_eye_boy_grown_key = KEYS[13]
local small_road_grown_key = KEYS[14]
local cockroach_road_grown_key = KEYS[15]
-- The integrity watch's (watchapply.lua), passed with the watch off too, untouched then.
local alerts_key = KEYS[16]  -- the alert stream
local index_key = KEYS[17]  -- the k-gram index, newer generation
local index_old_key = KEYS[18]  -- the k-gram index, older generation
local repeated_key = KEYS[19]  -- table -> the shoe named a repeat
local last_key = KEYS[20]  -- table -> what its last append left
local rounds_key = KEYS[21]  -- rounds waiting for their day's tally
local anchors_key = KEYS[22]  -- anchors waiting for the record's index
local found_key = KEYS[23]  -- the table's findings
local dealers_key = KEYS[24]  -- table -> its current dealer (JSON: id, and name once known)
local shoe_facts_key = KEYS[25]  -- table -> what the studio reported of its shoe (JSON)
local table_id = ARGV[1]
local default_entry = ARGV[2]  -- the registry entry of a table new to the lobby (JSON)
local stream_length = ARGV[3]  -- the event stream's bound (approximate)
local stored = ARGV[4]  -- the kept update (api/codecs/lobbyupdate.py), or '' to read it
local pattern_ids = ARGV[5]  -- comma-separated, in member_keys' order
local chances = ARGV[6]  -- each pattern's chance in a shoe, in pattern_ids' order ('': none)
local watch_on = ARGV[7]  -- '1': the integrity watch is on
local index_entries = ARGV[8]  -- the k-gram index's generation size
local alerts_length = ARGV[9]  -- the alert stream's bound (approximate)
local found_kept = ARGV[10]  -- findings kept per table
local rounds_kept = ARGV[11]  -- rounds, and anchors, waiting at the most
local day = ARGV[12]  -- the UTC day the write's round is tallied under
local recording = ARGV[13]  -- '1': new anchors go to the record's lasting index too
local queue_seconds = ARGV[14]  -- a waiting list no process took from for that long is dropped
local member_keys = rest(KEYS, 26)  -- each pattern's members: table -> since round

if stored == '' then
  stored = redis.call('GET', lobby_update_key)
  if not stored then
    return {0}
  end
end
local seq, current, body, watch = parse_stored(stored)
if seq <= tonumber(redis.call('HGET', applied_key, table_id) or '0') then
  return {0}
end
local update = cjson.decode(body)
redis.call('HSET', applied_key, table_id, seq)
local grown = {
  big_road = big_road_grown_key,
  big_eye_boy = big_eye_boy_grown_key,
  small_road = small_road_grown_key,
  cockroach_road = cockroach_road_grown_key,
}
-- Each pattern's member hash and its chance in a shoe (nil: none stated), by its id.
local members, chance_of = {}, {}
local at, next_chance = 0, string.gmatch(chances, '[^,]+')
for pattern in string.gmatch(pattern_ids, '[^,]+') do
  at = at + 1
  members[pattern] = member_keys[at]
  chance_of[pattern] = tonumber(next_chance() or '')
end
local raised = ''
if watch_on == '1' and watch ~= '' then
  raised = table.concat(watch_apply(table_id, watch, {
    alerts_key = alerts_key, index_key = index_key, index_old_key = index_old_key,
    repeated_key = repeated_key, last_key = last_key, rounds_key = rounds_key,
    anchors_key = anchors_key, found_key = found_key, shoe_facts_key = shoe_facts_key,
  }, {
    index_entries = index_entries, alerts_length = alerts_length, found_kept = found_kept,
    rounds_kept = rounds_kept, day = day, recording = recording, queue_seconds = queue_seconds,
  }), ',')
end
if redis.call('HEXISTS', tables_key, table_id) == 0 then
  -- A new table, or a retired one a round starts again (with the name it had).
  local retired = redis.call('HGET', retired_key, table_id)
  redis.call('HSET', tables_key, table_id, retired or default_entry)
  if retired then
    redis.call('HDEL', retired_key, table_id)
  end
end
local lseq = redis.call('INCR', seq_key)
local maxlen = tonumber(stream_length)
local ids = {}
-- Each event names the table's event before it ('prev'): the previous id on its table's
-- channel, which Pushpin checks to find a gap.
local function emit(kind, data, ...)
  local prev = redis.call('HGET', last_of_key, table_id) or ''
  local id = redis.call('XADD', events_key, 'MAXLEN', '~', maxlen, '*', 'type', kind,
    'data', data, 'table', table_id, 'prev', prev, ...)
  redis.call('HSET', last_of_key, table_id, id)
  ids[#ids + 1] = id
end
-- A road patch and the tile only for the table's current shoe: they are what its roads
-- document and its lobby tile become (an older shoe's write changes neither).
for _, event in ipairs(update.events) do
  if current and event[3] ~= '' then
    emit(event[1], event[2], 'patch', event[3], 'summary', update.summary)
  elseif current then
    emit(event[1], event[2], 'summary', update.summary)
  else
    emit(event[1], event[2])
  end
end
if not current then
  return {1, lseq, raised, unpack(ids)}
end
redis.call('HSET', summaries_key, table_id, update.summary)
redis.call('HSET', shapes_key, table_id, update.shape)
-- The registry entry follows the pay table the current shoe is priced under: a pay table that
-- waited for the shoe is in force from its first round (put_table.lua), whatever order a table
-- write and this update came in.
if update.variant then
  local entry = redis.call('HGET', tables_key, table_id)
  local now = entry and registry_in_force(entry, update.variant)
  if now and now ~= entry then
    redis.call('HSET', tables_key, table_id, now)
  end
end
-- The round's dealer: a studio names a dealer once a shift, so an id alone keeps the name the
-- table has for the same dealer.
if update.dealer then
  local dealer, known = update.dealer, redis.call('HGET', dealers_key, table_id)
  local now = cjson.decode(dealer)
  if known and now.name == nil and cjson.decode(known).id == now.id then
    dealer = known
  end
  redis.call('HSET', dealers_key, table_id, dealer)
end
for road, change in string.gmatch(update.runs, '([^,=]+)=([+-])') do
  if change == '+' then
    redis.call('HSET', grown[road], table_id, lseq)
  else
    redis.call('HDEL', grown[road], table_id)
  end
end
-- "name=value,..." as a table
local function parsed(text)
  local found = {}
  for name, value in string.gmatch(text, '([^,=]+)=([^,]+)') do
    found[name] = value
  end
  return found
end
-- A chance as a lobby shows it (roads.rarity.figure): 3 significant digits.
local function figure(chance)
  return tonumber(string.format('%.3g', chance))
end
-- Replace the table's entry in the hash KEY by FRESH ("name=value,..."), emitting a KIND event
-- with state "stop" for each name that left and "start" for each that came; on_change keeps an
-- index current (value nil: the name left).
local function transition(key, fresh, kind, field, value_field, on_change)
  local old, new = parsed(redis.call('HGET', key, table_id) or ''), parsed(fresh)
  redis.call('HSET', key, table_id, fresh)
  local function event(name, state, value)
    local data = {table = table_id, shoe = update.shoe, state = state}
    data[field] = name
    data[value_field] = tonumber(value)
    local chance = kind == 'good_road' and state == 'start' and chance_of[name]
    if chance then
      -- and that at least one of the lobby's tables shows it (roads.rarity.lobby_chance):
      -- 1 - (1 - chance)^tables, the tables counted as the event is added
      data.chance = chance
      data.lobby_chance = figure(1 - (1 - chance) ^ redis.call('HLEN', tables_key))
    end
    emit(kind, cjson.encode(data))
  end
  for name, value in pairs(old) do
    if not new[name] then
      on_change(name, nil)
      event(name, 'stop', value)
    end
  end
  for name, value in pairs(new) do
    on_change(name, value)
    if not old[name] then
      event(name, 'start', value)
    end
  end
end
transition(matched_key, update.matched, 'good_road', 'pattern', 'since_round',
  function(pattern, since)
    if since then
      redis.call('HSET', members[pattern], table_id, since)
    else
      redis.call('HDEL', members[pattern], table_id)
    end
  end)
transition(edges_key, update.edges, 'edge', 'bet', 'rtp', function() end)
return {1, lseq, raised, unpack(ids)}
