local function stamped(version, payload)
  return version .. ':' .. payload
end
local function is_stamped(value, version)
  local stamp = version .. ':'
  return value and string.sub(value, 1, #stamp) == stamp
end
