-- Log an event the studio reported between rounds (api/codecs/studioevents.py) for the record:
-- in the table's own chain, numbered as every write of the table is (only while the record is
-- on: an 'at' is handed over).
-- Returns 1.
local meta_key = KEYS[1]  -- the table's meta ('logged')
local log_key = KEYS[2]  -- the table's log of writes, for the record
local at = ARGV[1]  -- milliseconds, '' while the record is off
local by = ARGV[2]  -- the name of the key that reported it
local event = ARGV[3]  -- the event (JSON)

log_studio(meta_key, log_key, at, by, event)
return 1
