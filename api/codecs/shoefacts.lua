-- What the studio reported of a table's shoes, as the lobby keeps it, and the alerts it changes
-- (api/codecs/shoefacts.py): {"shoes": [{"shoe": S, FACT: value, ...}, ...]}, the newest last.

local SHOES_KEPT = 3  -- the shoes a table's entry keeps facts of (its newest reported on)

-- The table's facts as kept (`stored`: the entry, or false/nil for none).
local function read_facts(stored)
  local facts = stored and cjson.decode(stored) or {}
  if type(facts.shoes) ~= 'table' then
    facts.shoes = {}
  end
  return facts
end

-- The facts of `shoe`, or nil.
local function facts_of(facts, shoe)
  for _, entry in ipairs(facts.shoes) do
    if entry.shoe == shoe then
      return entry
    end
  end
  return nil
end

-- Set fact `name` of `shoe` to `value`, unless the shoe has it already and `keep` (a report
-- that names no value of its own: a retry keeps the first); the shoe's entry is made if need be
-- (the oldest dropped past SHOES_KEPT). Whether anything changed.
local function set_fact(facts, shoe, name, value, keep)
  local entry = facts_of(facts, shoe)
  if entry == nil then
    entry = {shoe = shoe}
    table.insert(facts.shoes, entry)
    while #facts.shoes > SHOES_KEPT do
      table.remove(facts.shoes, 1)
    end
  end
  if entry[name] ~= nil and (keep or entry[name] == value) then
    return false
  end
  entry[name] = value
  return true
end

-- An `unshuffled` alert's data (a JSON object) with whether the shoe was reported as new decks
-- (cjson writes its numbers to 14 significant digits: the chance stated keeps 14).
local function with_new_decks(data, reported)
  local alert = cjson.decode(data)
  alert.new_decks = reported
  return cjson.encode(alert)
end

-- The data of the `impossible_cards` alert of round `round` of the table's shoe, past the
-- `last_round` the cut card left (named as api/codecs/watchupdate.py names a finding's).
local function past_reported_cut(table_id, shoe, round, last_round)
  return cjson.encode({table = table_id, shoe = shoe, round = round, check = 'past_reported_cut',
    last_round = last_round,
    why = 'the studio reported the cut card out with round ' .. last_round .. ' the last of ' ..
      'the shoe, and round ' .. round .. ' was dealt after it'})
end
