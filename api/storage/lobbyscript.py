"""How a committed write reaches the lobby: the script that applies its lobby update.

A write is committed by a script on its table's slot (:mod:`api.storage.writescripts`), which also
keeps the lobby update its plan carries (:mod:`api.codecs.lobbyupdate`) at ``{t:TABLE}:lobby``.
:data:`LOBBY_PUBLISH` then applies it to the lobby-wide keys, on the lobby's slot: on a single
Redis server in the same round trip, reading the update from the table's key; on Redis Cluster in
a second one, with the update passed in.

**Why the Good Road and edge transitions are made in Lua.** A ``good_road`` or ``edge`` event
fires when a table starts or stops matching, which depends on the membership the lobby held when
the update is applied. Updates of one table may be applied late, twice (a retried write hands its
stored update over again) or by two processes at once; only the script, reading the old
membership and writing the new one atomically and skipping any update older than the last one
applied, can fire each transition once and in order. The rule itself is
:func:`roads.lobby.transitions`, and the tests hold the script to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from api.codecs import lobbyupdate
from api.codecs.tiles import registry_entry
from api.storage.integrity import watchapply
from api.storage.integrity.watchapply import IntegrityApply
from api.storage.keys import LobbyKeys
from api.storage.scripts import InlineScript as Script
from roads.lobby import LOBBY_ROADS
from roads.patterns import PATTERNS
from roads.rarity import figure, pattern_chance

# Events kept for clients that resume (approximate, trimmed by Redis). A round's event holds its
# road patch and the table's tile, about 3 KB, so the stream holds at most about 30 MB.
STREAM_LENGTH = 10_000
ROAD_NAMES = ",".join(LOBBY_ROADS)
PATTERN_IDS = ",".join(pattern.id for pattern in PATTERNS)
NAMES = (ROAD_NAMES, PATTERN_IDS)  # LOBBY_PUBLISH's ARGV[5] and ARGV[6] (ARGV[7]: chances)


def lua_list(names: tuple[str, ...]) -> str:
    """A Lua table of ``names`` (plain identifiers), in order."""
    return "{" + ", ".join(f"'{name}'" for name in names) + "}"


# KEYS: LobbyPublish.publish_keys (applied sequence numbers, table registry, summaries, road
#       shapes, matched patterns, lobby sequence counter, event stream, favourable bets, retired
#       entries, each table's last event id, then one "grown" hash per lobby road and one member
#       hash per pattern), then with the integrity watch on its keys (watchapply.KEY_NAMES),
#       then, when ARGV[4] is empty, the table's stored lobby update ({t:TABLE}:lobby)
# ARGV: table, default registry entry JSON, stream length bound, the stored update (Stored), or
#       empty to read it from the last key; the lobby roads and the pattern ids, in KEYS' order;
#       each pattern's chance in a shoe, in the same order (empty: none); with the watch on, its
#       arguments (watchapply.ARG_NAMES)
# Returns {0} when the update was applied before, else {1, lobby sequence number, the kinds of
# the integrity alerts raised (comma-separated), the ids of the events added...}.
LOBBY_PUBLISH = Script(
    """
local table_id = ARGV[1]
local stored = ARGV[4]
if stored == '' then
  stored = redis.call('GET', KEYS[#KEYS])
  if not stored then
    return {0}
  end
end
local seq, current, body, watch = parse_stored(stored)
if seq <= tonumber(redis.call('HGET', KEYS[1], table_id) or '0') then
  return {0}
end
local update = cjson.decode(body)
redis.call('HSET', KEYS[1], table_id, seq)
-- The "grown" and member hashes by name: they follow the fixed keys, in ARGV[5]'s and ARGV[6]'s
-- order; the integrity watch's keys and arguments follow, when it is on.
local grown, members, at = {}, {}, 11
for road in string.gmatch(ARGV[5], '[^,]+') do
  grown[road] = KEYS[at]
  at = at + 1
end
for pattern in string.gmatch(ARGV[6], '[^,]+') do
  members[pattern] = KEYS[at]
  at = at + 1
end
-- Each pattern's chance in a shoe (ARGV[7], in ARGV[6]'s order; empty: none stated).
local chances, next_chance = {}, string.gmatch(ARGV[7], '[^,]+')
for pattern in string.gmatch(ARGV[6], '[^,]+') do
  chances[pattern] = tonumber(next_chance() or '')
end
local raised = ''
if ARGV[8] then
  local wk, wa = {}, {}
  for i, name in ipairs(WATCH_KEYS) do
    wk[name] = KEYS[at + i - 1]
  end
  for i, name in ipairs(WATCH_ARGS) do
    wa[name] = ARGV[7 + i]
  end
  if watch ~= '' then
    raised = table.concat(watch_apply(table_id, watch, wk, wa), ',')
  end
end
if redis.call('HEXISTS', KEYS[2], table_id) == 0 then
  -- A new table, or a retired one a round starts again (with the name it had).
  local retired = redis.call('HGET', KEYS[9], table_id)
  redis.call('HSET', KEYS[2], table_id, retired or ARGV[2])
  if retired then
    redis.call('HDEL', KEYS[9], table_id)
  end
end
local lseq = redis.call('INCR', KEYS[6])
local maxlen = tonumber(ARGV[3])
local ids = {}
local last_of = KEYS[10]
-- Each event names the table's event before it ('prev'): the previous id on its table's
-- channel, which Pushpin checks to find a gap.
local function emit(kind, data, ...)
  local prev = redis.call('HGET', last_of, table_id) or ''
  local id = redis.call('XADD', KEYS[7], 'MAXLEN', '~', maxlen, '*', 'type', kind,
    'data', data, 'table', table_id, 'prev', prev, ...)
  redis.call('HSET', last_of, table_id, id)
  ids[#ids + 1] = id
end
-- A road patch and the tile only for the table's current shoe: they are what its roads
-- document and its lobby tile become (an older shoe's write changes neither).
for _, event in ipairs(update.events) do
  if current and event[3] ~= '' then
    emit(event[1], event[2], 'patch', event[3], 'summary', update.summary)
  elseif current then
    emit(event[1], event[2], 'summary', update.summary)
  else
    emit(event[1], event[2])
  end
end
if not current then
  return {1, lseq, raised, unpack(ids)}
end
redis.call('HSET', KEYS[3], table_id, update.summary)
redis.call('HSET', KEYS[4], table_id, update.shape)
for road, change in string.gmatch(update.runs, '([^,=]+)=([+-])') do
  if change == '+' then
    redis.call('HSET', grown[road], table_id, lseq)
  else
    redis.call('HDEL', grown[road], table_id)
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
-- A chance as a lobby shows it (roads.rarity.figure): 3 significant digits.
local function figure(chance)
  return tonumber(string.format('%.3g', chance))
end
local function transition(key, fresh, kind, field, value_field, on_change)
  local old, new = parsed(redis.call('HGET', key, table_id) or ''), parsed(fresh)
  redis.call('HSET', key, table_id, fresh)
  local function event(name, state, value)
    local data = {table = table_id, shoe = update.shoe, state = state}
    data[field] = name
    data[value_field] = tonumber(value)
    local chance = kind == 'good_road' and state == 'start' and chances[name]
    if chance then
      -- and that at least one of the lobby's tables shows it: 1 - (1 - chance)^tables
      data.chance = chance
      data.lobby_chance = figure(1 - (1 - chance) ^ redis.call('HLEN', KEYS[2]))
    end
    emit(kind, cjson.encode(data))
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
    redis.call('HSET', members[pattern], table_id, since)
  else
    redis.call('HDEL', members[pattern], table_id)
  end
end)
transition(KEYS[8], update.edges, 'edge', 'bet', 'rtp', function() end)
return {1, lseq, raised, unpack(ids)}
""".replace("WATCH_KEYS", lua_list(watchapply.KEY_NAMES)).replace(
        "WATCH_ARGS", lua_list(watchapply.ARG_NAMES)
    ),
    uses=[lobbyupdate.LUA, watchapply.LUA],
)


# Take a table out of the lobby: its tile, Good Roads, edges and runs; its registry entry kept
# aside for the round that starts it again; a ``retired`` event on its channel and the lobby's.
# KEYS: registry, summaries, shapes, matched, edges, lobby sequence counter, event stream,
#       retired, last-of, then every "grown" and member hash.  ARGV: table, stream length bound.
# Returns 0 when the lobby does not list the table, else 1.
LOBBY_RETIRE = Script("""
local table_id = ARGV[1]
local entry = redis.call('HGET', KEYS[1], table_id)
if not entry then
  return 0
end
redis.call('HSET', KEYS[8], table_id, entry)
for i = 1, 5 do
  redis.call('HDEL', KEYS[i], table_id)
end
for i = 10, #KEYS do
  redis.call('HDEL', KEYS[i], table_id)
end
redis.call('INCR', KEYS[6])
local prev = redis.call('HGET', KEYS[9], table_id) or ''
local id = redis.call('XADD', KEYS[7], 'MAXLEN', '~', tonumber(ARGV[2]), '*', 'type', 'retired',
  'data', cjson.encode({table = table_id}), 'table', table_id, 'prev', prev)
redis.call('HSET', KEYS[9], table_id, id)
return 1
""")


def retire_keys(keys: LobbyKeys) -> list[str]:
    """The keys of :data:`LOBBY_RETIRE`, in its order."""
    return [
        keys.tables,
        keys.summaries,
        keys.shapes,
        keys.matched,
        keys.edges,
        keys.seq,
        keys.events,
        keys.retired,
        keys.last_of,
        *(keys.grown(road) for road in LOBBY_ROADS),
        *(keys.good(pattern.id) for pattern in PATTERNS),
    ]


@dataclass(frozen=True)
class LobbyPublish:
    """Hand a committed write's lobby update to the lobby: applied once and in table write order
    (an older or repeated one changes nothing), so a retried write may hand it over again, in
    case the first answer was lost before the lobby had it. With the integrity watch on
    (``watch``), its part of the update is applied in the same call."""

    keys: LobbyKeys
    watch: IntegrityApply | None = None
    hands: int | None = None  # the shoe a Good Road's chance is stated for (None: none)

    @cached_property
    def chances(self) -> str:
        """Each pattern's chance in a shoe of ``hands`` hands, in :data:`PATTERN_IDS`' order,
        as a ``good_road`` start event states it (:func:`roads.rarity.figure`)."""
        if self.hands is None:
            return ""
        return ",".join(str(figure(pattern_chance(p, self.hands).value)) for p in PATTERNS)

    @cached_property
    def publish_keys(self) -> list[str]:
        keys = self.keys
        return [
            keys.applied,
            keys.tables,
            keys.summaries,
            keys.shapes,
            keys.matched,
            keys.seq,
            keys.events,
            keys.edges,
            keys.retired,
            keys.last_of,
            *(keys.grown(road) for road in LOBBY_ROADS),
            *(keys.good(pattern.id) for pattern in PATTERNS),
        ]

    def _call(self, table: str, stored: bytes | str, day: str) -> tuple[list[str], list[Any]]:
        keys = self.publish_keys
        args = [table, registry_entry(table, "standard"), STREAM_LENGTH, stored, *NAMES]
        args.append(self.chances)
        if self.watch is not None:
            keys = [*keys, *self.watch.keys_of(table)]
            args += self.watch.args(day)
        return keys, args

    def queue(self, commands: Any, table: str, stored: bytes | str, day: str = "") -> None:
        """The update as the write script stored it (passed in: Redis Cluster); ``day``: the
        UTC day the watch tallies the write under."""
        keys, args = self._call(table, stored, day)
        LOBBY_PUBLISH.queue(commands, keys, args)

    def queue_stored(self, commands: Any, table: str, stored_key: str, day: str = "") -> None:
        """The update read by the script from ``stored_key`` (one Redis server: the write and
        this travel in one round trip; the key is in another Cluster slot than the lobby)."""
        keys, args = self._call(table, "", day)
        LOBBY_PUBLISH.queue(commands, [*keys, stored_key], args)


def raised_kinds(reply: Any) -> list[str]:
    """The kinds of the integrity alerts a :data:`LOBBY_PUBLISH` reply says were raised."""
    if not isinstance(reply, list) or len(reply) < 3:
        return []
    text = reply[2].decode() if isinstance(reply[2], bytes) else str(reply[2])
    return [kind for kind in text.split(",") if kind]
