local function stored_update(seq, current, update)
  return seq .. ':' .. (current and '1' or '0') .. ':' .. update
end
local function parse_stored(stored)
  -- string.find, not a pattern capturing the rest: the update is kilobytes long.
  local a = string.find(stored, ':', 1, true)
  local b = string.find(stored, ':', a + 1, true)
  local seq, current = tonumber(string.sub(stored, 1, a - 1)), string.sub(stored, a + 1, b - 1)
  local watch, from = '', b + 1
  if string.byte(stored, from) ~= 123 then  -- not '{': the watch's part comes first
    local c = string.find(stored, ':', from, true)
    local size = tonumber(string.sub(stored, from, c - 1))
    watch = string.sub(stored, c + 1, c + size)
    from = c + size + 1
  end
  return seq, current == '1', string.sub(stored, from), watch
end
