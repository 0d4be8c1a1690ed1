-- What the studio reported of a shoe, in the alerts it changes (api/codecs/shoefacts.py).

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
