-- A table's registry entry (api/codecs/tiles.py's registry_entry) whose current shoe is priced
-- under `variant`: its variant that one, and its next_variant gone when it was that one (it
-- waited for the shoe); else the entry as it is. tiles.py's in_force is the rule. On the text:
-- a name is a JSON string (its quotes escaped) and a pay table's name is snake_case, so
-- ',"variant":"' begins the field, and the limits' numbers keep their spelling.
local function registry_in_force(entry, variant)
  local first, last, named = string.find(entry, ',"variant":"([%w_]+)"', 1)
  if not first then
    return entry
  end
  local rest = string.sub(entry, last + 1)
  local _, waiting_end, waiting = string.find(rest, '^,"next_variant":"([%w_]+)"')
  if named == variant and waiting ~= variant then
    return entry
  end
  if waiting == variant then
    rest = string.sub(rest, waiting_end + 1)
  end
  return string.sub(entry, 1, first - 1) .. ',"variant":"' .. variant .. '"' .. rest
end
