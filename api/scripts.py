"""The Lua scripts that commit writes atomically, one round trip each, and how to queue them.

Every script checks the shoe's version it was computed against (optimistic concurrency): when
another writer got there first it changes nothing and reports the current version, and the
caller reads again and retries. All keys a script touches are passed in KEYS and share the
table's hash tag, so each script runs on one Redis Cluster slot.
"""

from typing import Any


def queue(pipeline: Any, script: Any, keys: list, args: list) -> None:
    """Add a registered script (``redis.commands.core.Script``) to ``pipeline`` by its SHA.

    redis-py's own way (calling the script with ``client=pipeline``) asks the server whether
    the script is loaded before every execution, one more round trip; the caller here instead
    loads the scripts and runs the pipeline again if the server answers ``NOSCRIPT`` (only after
    a restart or a ``SCRIPT FLUSH``)."""
    pipeline.evalsha(script.sha, len(keys), *keys, *args)


# KEYS: table meta, shoe info, shoe rounds, shoe state
# What an append is computed from, read at one instant in one command: the table's current shoe
# and variant, the shoe's version, its round count and its cached state.
READ_FOR_APPEND = """
-- (false, not nil, stands for a missing value: a nil would end the reply there)
local meta = redis.call('HMGET', KEYS[1], 'current', 'variant')
return {meta[1] or false, meta[2] or false, redis.call('HGET', KEYS[2], 'version') or false,
  redis.call('LLEN', KEYS[3]), redis.call('GET', KEYS[4]) or false}
"""

# KEYS: table meta, shoe info, shoe rounds, shoe state, table shoes, table lobby update
# ARGV: shoe id, expected version, expected count, record JSON, state bytes, state TTL,
#       version channel, version message prefix ("table\x1fshoe\x1f"), lobby update JSON,
#       expected table variant
# The lobby update (summary and events, see api/lobby.py) is kept beside the round under the
# table's write sequence number, so it can be handed to the lobby again after a crash. The
# variant is checked because the update's edge depends on it. Replies {1, version, write
# sequence, 1 (the shoe is current)} when it commits, like REPLACE_ROUND.
APPEND_ROUND = """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local count = redis.call('LLEN', KEYS[3])
local meta = redis.call('HMGET', KEYS[1], 'current', 'variant')
local current = meta[1]
if version ~= tonumber(ARGV[2]) or count ~= tonumber(ARGV[3])
    or (meta[2] or 'standard') ~= ARGV[10] then
  return {0, version, count, 0}
end
if count == 0 then
  -- The first round of a new shoe makes it the table's current shoe.
  redis.call('HSET', KEYS[1], 'current', ARGV[1])
  redis.call('RPUSH', KEYS[5], ARGV[1])
elseif current ~= ARGV[1] then
  return {-1, version, count, 0}
end
redis.call('RPUSH', KEYS[3], ARGV[4])
version = version + 1
redis.call('HSET', KEYS[2], 'version', version, 'rounds', count + 1)
redis.call('SET', KEYS[4], version .. ':' .. ARGV[5], 'EX', tonumber(ARGV[6]))
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('PUBLISH', ARGV[7], ARGV[8] .. version .. '\\31' .. 'current' .. '\\31' .. seq)
redis.call('SET', KEYS[6], seq .. ':1:' .. ARGV[9])
return {1, version, seq, 1}
"""

# KEYS: shoe info, shoe rounds, shoe state, table meta, table lobby update
# ARGV: expected version, round index (0-based), record JSON, state bytes, state TTL,
#       1 when the change voids the round (counted in the shoe's ``void``), else 0,
#       version channel, version message prefix, shoe id, lobby update JSON
# The lobby update is flagged 1 when the shoe is the table's current one (its summary is then
# the table's), else 0 (only its events count).
REPLACE_ROUND = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {0, version, 0, 0}
end
redis.call('LSET', KEYS[2], tonumber(ARGV[2]), ARGV[3])
version = version + 1
redis.call('HSET', KEYS[1], 'version', version)
redis.call('HINCRBY', KEYS[1], 'void', tonumber(ARGV[6]))
redis.call('SET', KEYS[3], version .. ':' .. ARGV[4], 'EX', tonumber(ARGV[5]))
local current = redis.call('HGET', KEYS[4], 'current') == ARGV[9] and '1' or '0'
local seq = redis.call('HINCRBY', KEYS[4], 'seq', 1)
local flag = current == '1' and 'current' or ''
redis.call('PUBLISH', ARGV[7], ARGV[8] .. version .. '\\31' .. flag .. '\\31' .. seq)
redis.call('SET', KEYS[5], seq .. ':' .. current .. ':' .. ARGV[10])
return {1, version, seq, tonumber(current)}
"""

# KEYS: shoe info, shoe state
# ARGV: version the state was built at, state bytes, state TTL
# Stores a rebuilt state only if the shoe is still at that version.
STORE_STATE = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
"""

# KEYS: shoe info, cached response
# Reads a shoe's version and one cached response in one command. No transaction is needed: the
# cached value carries the version it was built at, and the caller uses it only at that version.
READ_CACHED = """
return {redis.call('HGET', KEYS[1], 'version'), redis.call('GET', KEYS[2])}
"""

# KEYS: shoe info, cached response, its build claim, shoe state
# ARGV: how long a claim lasts (ms)
# A read's one round trip: the shoe's version and the cached response if it was built at that
# version; when it was not, the claim to build it (single-flight: refused while another request
# holds the claim for this version) and, with the claim, the shoe's cached scorecard state to
# build it from. Replies {version, response}, {version, false, 0} (another request builds it),
# {version, false, 1, state or false} (claimed) or {false} (no such shoe).
READ_OR_CLAIM = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
  return {false}
end
local stamp = version .. ':'
local cached = redis.call('GET', KEYS[2])
if cached and string.sub(cached, 1, #stamp) == stamp then
  return {version, cached}
end
if redis.call('GET', KEYS[3]) == version then
  return {version, false, 0}
end
redis.call('SET', KEYS[3], version, 'PX', tonumber(ARGV[1]))
return {version, false, 1, redis.call('GET', KEYS[4]) or false}
"""

# KEYS: applied sequence numbers, table registry, summaries, road shapes, matched patterns,
#       lobby sequence counter, event stream, favourable bets, then one "grown" hash per lobby
#       road, then one member hash per pattern (named ...:ROAD / ...:PATTERN, see api/lobby.py),
#       then, when ARGV[4] is empty, the table's stored lobby update ({t:TABLE}:lobby)
# ARGV: table, default registry entry JSON, stream length bound, the table's lobby update as
#       stored by the write scripts ("SEQ:CURRENT:JSON", or empty to read it from the last key)
# The update's JSON (see api/lobby.py update_of) holds the shoe, the summary JSON, the shape
# JSON, the matched patterns ("id=since_round,..."), the run changes ("road=+" grew, "road=-"
# another run started), the favourable bets ("bet=rtp,...") and the events ([type, JSON] pairs).
# Applies a table's update to the lobby-wide structures once, in table write order: an update
# older than the last one applied (a late or repeated call) changes nothing. Good Road events are
# made here, from the membership the lobby held, so they fire exactly when membership changes;
# so are the edge events, when a bet's return crosses 100%.
# Reading the update from the table's key is for a single Redis server, where the service sends
# this script in the same round trip as the write script (on Redis Cluster the two keys are in
# different slots, so the service passes the update itself, in a second round trip).
LOBBY_PUBLISH = """
local table_id = ARGV[1]
local last_key = #KEYS
local stored = ARGV[4]
if stored == '' then
  stored = redis.call('GET', KEYS[last_key])
  last_key = last_key - 1
  if not stored then
    return {0}
  end
end
local seq_text, current, body = string.match(stored, '^(%d+):([01]):(.*)$')
local seq = tonumber(seq_text)
if seq <= tonumber(redis.call('HGET', KEYS[1], table_id) or '0') then
  return {0}
end
local update = cjson.decode(body)
redis.call('HSET', KEYS[1], table_id, seq)
redis.call('HSETNX', KEYS[2], table_id, ARGV[2])
local lseq = redis.call('INCR', KEYS[6])
local maxlen = tonumber(ARGV[3])
local ids = {}
local function emit(kind, data)
  ids[#ids + 1] = redis.call('XADD', KEYS[7], 'MAXLEN', '~', maxlen, '*', 'type', kind,
    'data', data)
end
for _, event in ipairs(update.events) do
  emit(event[1], event[2])
end
if current ~= '1' then
  return {1, lseq, unpack(ids)}
end
-- The "grown" and member hashes are named from the lobby's tag (KEYS[1] is TAG:applied), as
-- api/lobby.py names the keys passed: no search of KEYS on every call (a quarter of its cost).
local tag = string.sub(KEYS[1], 1, #KEYS[1] - #':applied')
redis.call('HSET', KEYS[3], table_id, update.summary)
redis.call('HSET', KEYS[4], table_id, update.shape)
for road, change in string.gmatch(update.runs, '([^,=]+)=([+-])') do
  if change == '+' then
    redis.call('HSET', tag .. ':grown:' .. road, table_id, lseq)
  else
    redis.call('HDEL', tag .. ':grown:' .. road, table_id)
  end
end
-- "name=value,..." as a table
local function parsed(text)
  local found = {}
  for name, value in string.gmatch(text, '([^,=]+)=([^,]+)') do
    found[name] = value
  end
  return found
end
-- Replace the table's entry in the hash KEY by FRESH ("name=value,..."), emitting a KIND event
-- with state "stop" for each name that left and "start" for each that came; on_change keeps an
-- index current (value nil: the name left).
local function transition(key, fresh, kind, field, value_field, on_change)
  local old, new = parsed(redis.call('HGET', key, table_id) or ''), parsed(fresh)
  redis.call('HSET', key, table_id, fresh)
  local prefix = '{"table":"' .. table_id .. '","shoe":"' .. update.shoe .. '","' .. field .. '":"'
  local function event(name, state, value)
    emit(kind, prefix .. name .. '","state":"' .. state .. '","' .. value_field .. '":'
      .. value .. '}')
  end
  for name, value in pairs(old) do
    if not new[name] then
      on_change(name, nil)
      event(name, 'stop', value)
    end
  end
  for name, value in pairs(new) do
    on_change(name, value)
    if not old[name] then
      event(name, 'start', value)
    end
  end
end
transition(KEYS[5], update.matched, 'good_road', 'pattern', 'since_round', function(pattern, since)
  if since then
    redis.call('HSET', tag .. ':good:' .. pattern, table_id, since)
  else
    redis.call('HDEL', tag .. ':good:' .. pattern, table_id)
  end
end)
transition(KEYS[8], update.edges, 'edge', 'bet', 'rtp', function() end)
return {1, lseq, unpack(ids)}
"""
