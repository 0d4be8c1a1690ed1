local function version_message(table_id, shoe, version, current, seq)
  return table_id .. '\31' .. shoe .. '\31' .. version .. '\31'
    .. (current and 'current' or '') .. '\31' .. seq
end
