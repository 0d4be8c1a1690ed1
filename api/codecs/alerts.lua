-- An alert in a table's list of findings (api/codecs/alerts.py): 'ID KIND DATA', its stream id,
-- its kind and its data JSON.
local function found_entry(id, kind, data)
  return id .. ' ' .. kind .. ' ' .. data
end
