-- A committed write's entry in its table's log (api/codecs/writelog.py reads it back): one
-- function per kind, the one place a kind's fields are spelled. An entry is numbered by the
-- table's 'logged' (its id 'N-1') and logged only when handed an 'at' (the record is on).
local function log_write(meta_key, log_key, at, by, kind, ...)
  if at == '' then return end
  local n = redis.call('HINCRBY', meta_key, 'logged', 1)
  redis.call('XADD', log_key, n .. '-1', 'at', at, 'by', by, 'kind', kind, ...)
end
-- A round appended; opens: '1' when it opened the shoe, else '0'.
local function log_round(meta_key, log_key, at, by, shoe, number, version, record, opens)
  log_write(meta_key, log_key, at, by, 'round', 'shoe', shoe, 'number', number,
    'version', version, 'record', record, 'opens', opens)
end
-- A round rewritten with a new result.
local function log_correction(meta_key, log_key, at, by, shoe, number, version, record)
  log_write(meta_key, log_key, at, by, 'correction', 'shoe', shoe, 'number', number,
    'version', version, 'record', record)
end
-- A round rewritten as void.
local function log_void(meta_key, log_key, at, by, shoe, number, version, record)
  log_write(meta_key, log_key, at, by, 'void', 'shoe', shoe, 'number', number,
    'version', version, 'record', record)
end
-- Cards burned after a round: the round's record with them.
local function log_burn(meta_key, log_key, at, by, shoe, number, version, record)
  log_write(meta_key, log_key, at, by, 'burn', 'shoe', shoe, 'number', number,
    'version', version, 'record', record)
end
-- A table named, its pay table (variant) set; limits: its limits (JSON), '' for none;
-- paytable: the pay table's document (JSON), '' for a preset; applies: 'next_shoe' when it waits
-- for the next shoe, '' when it applies at once (neither logged when '').
local function log_table(meta_key, log_key, at, by, name, variant, limits, paytable, applies)
  local fields = {'name', name, 'variant', variant}
  for _, field in ipairs({{'limits', limits}, {'paytable', paytable or ''},
      {'applies', applies or ''}}) do
    if field[2] ~= '' then
      fields[#fields + 1] = field[1]
      fields[#fields + 1] = field[2]
    end
  end
  log_write(meta_key, log_key, at, by, 'table', unpack(fields))
end
-- An event the studio reported between rounds (JSON: api/codecs/studioevents.py).
local function log_studio(meta_key, log_key, at, by, event)
  log_write(meta_key, log_key, at, by, 'studio', 'event', event)
end
-- A table retired; raised: {shoe, version} of each shoe whose version retiring raised.
local function log_retire(meta_key, log_key, at, by, raised)
  local versions = {}
  for i, pair in ipairs(raised) do
    versions[i] = pair[1] .. '=' .. pair[2]
  end
  log_write(meta_key, log_key, at, by, 'retire', 'versions', table.concat(versions, ','))
end
