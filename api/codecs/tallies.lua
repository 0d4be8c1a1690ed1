-- What the integrity watch keeps of a day's drift (api/codecs/tallies.py).

-- A round waiting for its day's tally: 'TABLE DAY OBSERVED SIDE EXPECT', the outcomes and the
-- chances comma-separated as the write's watch part carries them (api/codecs/watchupdate.py).
local function tally_round(table_id, day, observed, side, expect, dealer)
  local entry = table_id .. ' ' .. day .. ' ' .. observed .. ' ' .. side .. ' ' .. expect
  if type(dealer) == 'string' and dealer ~= '' then
    entry = entry .. ' ' .. dealer
  end
  return entry
end

-- A table's tally of a day as its `count` numbers (all 0 for a day it has none of yet).
local function read_tally(text, count)
  local values = {}
  if text then
    for value in string.gmatch(text, '[^,]+') do
      values[#values + 1] = tonumber(value)
    end
  else
    for i = 1, count do
      values[i] = 0
    end
  end
  return values
end

-- The numbers of a tally as it is kept: comma-separated (Lua's own text of each number: 14
-- significant digits).
local function tally_text(values)
  return table.concat(values, ',')
end
