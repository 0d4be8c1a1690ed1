-- An event on a table's channel and the lobby's that changes no tile (a studio event between
-- rounds: api/codecs/studioevents.py), named by the table's event before it as every event is.
-- A report that states a fact of a shoe the integrity watch uses (new decks, the cut card's last
-- round) keeps it with the table's facts of that shoe (api/codecs/shoefacts.lua); one that
-- changes nothing (the same fact again, or a cut card's retry) is no event.
-- Returns 0 when the lobby does not list the table (never named, or retired), 2 when the report
-- changed nothing, else 1.
local tables_key = KEYS[1]  -- the lobby's registry: table -> its entry
local events_key = KEYS[2]  -- the event stream the feeds read
local last_of_key = KEYS[3]  -- table -> its newest event id
local shoe_facts_key = KEYS[4]  -- table -> its shoes' facts (JSON)
local table_id = ARGV[1]
local kind = ARGV[2]  -- the event's type
local data = ARGV[3]  -- the event's data (JSON)
local stream_length = ARGV[4]  -- the event stream's bound (approximate)
local fact_shoe = ARGV[5]  -- the shoe the fact is of ('': no fact)
local fact = ARGV[6]  -- the fact's name
local fact_value = ARGV[7]  -- its value (a number)
local fact_keep = ARGV[8]  -- '1': a value the shoe has already stands (the report named none)

if redis.call('HEXISTS', tables_key, table_id) == 0 then
  return 0
end
if fact_shoe ~= '' then
  local facts = read_facts(redis.call('HGET', shoe_facts_key, table_id))
  if not set_fact(facts, fact_shoe, fact, tonumber(fact_value), fact_keep == '1') then
    return 2
  end
  redis.call('HSET', shoe_facts_key, table_id, cjson.encode(facts))
end
local prev = redis.call('HGET', last_of_key, table_id) or ''
local id = redis.call('XADD', events_key, 'MAXLEN', '~', tonumber(stream_length), '*',
  'type', kind, 'data', data, 'table', table_id, 'prev', prev)
redis.call('HSET', last_of_key, table_id, id)
return 1
