-- Move the GRIP publisher's cursor to the id of the last event it published, only while
-- `holder` holds its lease. Returns 1 when moved, else 0.
local lease_key = KEYS[1]  -- the publisher's lease
local cursor_key = KEYS[2]  -- the id of the last event published
local holder = ARGV[1]
local event_id = ARGV[2]

if redis.call('GET', lease_key) ~= holder then return 0 end
redis.call('SET', cursor_key, event_id)
return 1
