-- Name a pay table of the deployment's own: a name means one pay table for ever (a round's
-- record names the pay table it was priced under), so a name already taken by another pay
-- table is refused, and the same one defined again changes nothing.
-- Returns 1 when defined (or already so), 0 when the name is another pay table's, -1 when the
-- deployment has as many as it may keep.
local paytables_key = KEYS[1]  -- name -> the pay table (JSON, api/codecs/paytables.py)
local name = ARGV[1]
local document = ARGV[2]
local most = ARGV[3]  -- the most pay tables a deployment keeps

local known = redis.call('HGET', paytables_key, name)
if known then
  return known == document and 1 or 0
end
if redis.call('HLEN', paytables_key) >= tonumber(most) then
  return -1
end
redis.call('HSET', paytables_key, name, document)
return 1
