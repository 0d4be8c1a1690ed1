-- Add a batch of a table's rounds to its tally of a day (api/codecs/tallies.py), the runs counted
-- on from the day's last Banker/Player result: a result unlike the last one starts a run.
-- Returns 1.
local tally_key = KEYS[1]  -- the day's tallies: table -> its tally
local table_id = ARGV[1]
local added = ARGV[2]  -- what the batch adds to each number before the runs, comma-separated
local sides = ARGV[3]  -- the batch's Banker/Player results in order, '1' or '2' each
local lifetime = ARGV[4]  -- seconds a day's tallies are kept
local field_count = ARGV[5]  -- the tally's numbers (roads.integrity.drift.FIELDS): the last two
                             -- are the runs and the last result (0: none yet)

local count = tonumber(field_count)
local text = redis.call('HGET', tally_key, table_id)
local values = read_tally(text, count)
local i = 0
for value in string.gmatch(added, '[^,]+') do
  i = i + 1
  values[i] = values[i] + tonumber(value)
end
local runs, last = count - 1, count
for side in string.gmatch(sides, '%d') do
  side = tonumber(side)
  if values[last] ~= side then
    values[runs] = values[runs] + 1
    values[last] = side
  end
end
redis.call('HSET', tally_key, table_id, tally_text(values))
if not text then
  redis.call('EXPIRE', tally_key, tonumber(lifetime))
end
return 1
