-- Take up to `count` of a list's entries, oldest first (the rounds waiting for their day's tally,
-- the anchors waiting for the record's index): nobody else gets them.
-- Returns the entries taken.
local list_key = KEYS[1]
local count = ARGV[1]

local taken = redis.call('LRANGE', list_key, 0, tonumber(count) - 1)
redis.call('LTRIM', list_key, #taken, -1)
return taken
