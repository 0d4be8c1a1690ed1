-- The k-gram index's sightings and the anchors handed to the record (api/codecs/anchors.py).

-- Where a k-gram was first seen: 'TABLE SHOE ROUND'.
local function sighting(table_id, shoe, round)
  return table_id .. ' ' .. shoe .. ' ' .. round
end

-- A sighting's table, shoe and round (nil when the text is none).
local function parse_sighting(text)
  return string.match(text, '^(%S+) (%S+) (%d+)$')
end

-- An anchor for the record's lasting index: 'FINGERPRINT TABLE SHOE ROUND'.
local function anchor_entry(fingerprint, seen)
  return fingerprint .. ' ' .. seen
end
