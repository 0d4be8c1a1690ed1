-- Raise an alert once for its reason (a drift alert once per table and day, whoever evaluates
-- the day): to the alert stream and the table's findings (api/codecs/alerts.py).
-- Returns 1 when raised, 0 when it was raised before.
local alerted_key = KEYS[1]  -- the reasons raised already
local alerts_key = KEYS[2]  -- the alert stream
local found_key = KEYS[3]  -- the table's findings
local reason = ARGV[1]
local table_id = ARGV[2]  -- the table the stream entry names ('': none, a dealer's alert)
local kind = ARGV[3]
local data = ARGV[4]  -- JSON
local alerts_length = ARGV[5]  -- the alert stream's bound (approximate)
local found_kept = ARGV[6]  -- findings kept per table
local alerted_kept = ARGV[7]  -- reasons kept at the most

if redis.call('HSETNX', alerted_key, reason, 1) == 0 then
  return 0
end
if redis.call('HLEN', alerted_key) > tonumber(alerted_kept) then
  redis.call('DEL', alerted_key)  -- a bound: reasons this old are not raised again anyway
  redis.call('HSET', alerted_key, reason, 1)
end
local id = redis.call('XADD', alerts_key, 'MAXLEN', '~', alerts_length, '*', 'type', kind,
  'data', data, 'table', table_id)
redis.call('LPUSH', found_key, found_entry(id, kind, data))
redis.call('LTRIM', found_key, 0, tonumber(found_kept) - 1)
return 1
