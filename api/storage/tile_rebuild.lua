-- Put each table's tile summary made again from its shoe's rounds in place of the one stored in
-- an older format (api/storage/tilerebuild.py), only where that one is still stored: a write
-- since left a newer summary, which stays. Moves the lobby's cursor when any was replaced, so no
-- answer or frame made from the older summaries is served as current.
-- Returns how many summaries were replaced.
local summaries_key = KEYS[1]  -- table -> its tile summary (JSON)
local seq_key = KEYS[2]  -- the lobby's sequence counter
local rebuilt = rest(ARGV, 1)  -- table, the summary read, the summary made again; ...

local replaced = 0
for i = 1, #rebuilt, 3 do
  if redis.call('HGET', summaries_key, rebuilt[i]) == rebuilt[i + 1] then
    redis.call('HSET', summaries_key, rebuilt[i], rebuilt[i + 2])
    replaced = replaced + 1
  end
end
if replaced > 0 then
  redis.call('INCR', seq_key)
end
return replaced
