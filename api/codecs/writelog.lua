local function log_write(meta, log, at, by, fields)
  if at == '' then return end
  local n = redis.call('HINCRBY', meta, 'logged', 1)
  redis.call('XADD', log, n .. '-1', 'at', at, 'by', by, unpack(fields))
end
