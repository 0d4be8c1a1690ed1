-- Joined ahead of every script (api/storage/luascript.py), before the fragments it uses.

-- The entries of T from index FROM on, as a new table: a header's rest of KEYS or ARGV. A loop,
-- not unpack(), which Redis's Lua caps at about 8,000 values.
local function rest(t, from)
  local out = {}
  for i = from, #t do
    out[#out + 1] = t[i]
  end
  return out
end
