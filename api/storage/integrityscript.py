"""How a committed write reaches the integrity watch: the script that applies its part
(:mod:`api.codecs.watchupdate`), beside the lobby script and like it applied once and in table
write order (on one server reading the update the write script kept, on a cluster passed in).

It raises the plan's findings; looks each anchor up in the k-gram index and names the earlier
table, shoe and round of the first one another shoe holds (``repeated_shoe``, once per shoe),
indexing the others; adds the round to its table's day tally against the chances the table's
previous append left for it (``last``); and raises each open side bet newly exposed in the
shoe. Findings go to the alert stream and to the table's list of findings. The index keeps two
generations: when the newer holds ``ARGV[3]`` entries it becomes the older, and the oldest go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.codecs import lobbyupdate
from api.metrics import INTEGRITY_ALERTS
from api.storage.keys import IntegrityKeys
from api.storage.scripts import Script
from roads.integrity import drift

STREAM_LENGTH = 10_000  # alerts kept for operators who resume (approximate, trimmed by Redis)
FOUND_PER_TABLE = 500  # findings kept per table for its answer
DAY_SECONDS = 40 * 86_400  # a day's tally is kept 40 days
INDEX_ENTRIES = 1_000_000  # k-grams in each of the index's two generations

# KEYS: applied, events, index, index_old, repeated, last (each table's last append: its shoe,
#       the next round's chances, the side bets exposed), the day's tally, the table's findings,
#       then (ARGV[2] empty) the table's stored lobby update
# ARGV: table, the stored update or empty, index generation size, stream length, findings kept,
#       tally lifetime (seconds)
# Returns the kinds of the alerts raised.
INTEGRITY_APPLY = Script(
    """
local table_id = ARGV[1]
local stored = ARGV[2]
local seq, part
if stored == '' then
  -- Only the head of the kept update: the watch's part comes first, the kilobytes after it
  -- are the lobby's.
  local head = redis.call('GETRANGE', KEYS[#KEYS], 0, HEAD_BYTES - 1)
  if head == '' then
    return {}
  end
  local from, size
  seq, from, size = watch_span(head)
  part = string.sub(head, from, from + size - 1)
  if #part < size then
    part = redis.call('GETRANGE', KEYS[#KEYS], from - 1, from + size - 2)
  end
else
  local kept_seq, _, _, kept_part = parse_stored(stored)
  seq, part = kept_seq, kept_part
end
if seq <= tonumber(redis.call('HGET', KEYS[1], table_id) or '0') then
  return {}
end
redis.call('HSET', KEYS[1], table_id, seq)
if part == '' then
  return {}
end
local watch = cjson.decode(part)
local raised = {}
local function raise(kind, data)
  local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'type', kind, 'data', data,
    'table', table_id)
  redis.call('LPUSH', KEYS[8], id .. ' ' .. kind .. ' ' .. data)
  redis.call('LTRIM', KEYS[8], 0, tonumber(ARGV[5]) - 1)
  raised[#raised + 1] = kind
end
for _, finding in ipairs(watch.findings) do
  raise(finding[1], finding[2])
end
-- The k-gram index: fingerprint -> "table shoe round" of its first sighting.
local here = table_id .. ' ' .. watch.shoe
local named = redis.call('HGET', KEYS[5], table_id) == watch.shoe
for _, anchor in ipairs(watch.anchors) do
  local fp, round = anchor[1], anchor[2]
  local seen = redis.call('HGET', KEYS[3], fp) or redis.call('HGET', KEYS[4], fp)
  if not seen then
    redis.call('HSET', KEYS[3], fp, here .. ' ' .. round)
  else
    local t, s, r = string.match(seen, '^(%S+) (%S+) (%d+)$')
    if (t ~= table_id or s ~= watch.shoe) and not named then
      named = true
      redis.call('HSET', KEYS[5], table_id, watch.shoe)
      raise('repeated_shoe', cjson.encode({table = table_id, shoe = watch.shoe,
        round = watch.round, from_round = round,
        earlier = {table = t, shoe = s, round = tonumber(r)}}))
    end
  end
end
if redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[3]) then
  redis.call('RENAME', KEYS[3], KEYS[4])
end
-- What the table's last append left: its shoe, the next round's chances, the side bets exposed.
local shoe_before, upcoming_before, exposed_before = nil, nil, ''
local last = redis.call('HGET', KEYS[6], table_id)
if last then
  shoe_before, upcoming_before, exposed_before = string.match(last, '^(%S+) (%S+) ?(.*)$')
end
local same_shoe = shoe_before == watch.shoe
-- The day's tally (roads.integrity.drift.FIELDS).
local tally = watch.tally
if tally ~= nil and tally ~= cjson.null then
  local expect = tally.expect
  if expect == cjson.null then
    expect = nil
    if same_shoe then
      expect = {}
      for value in string.gmatch(upcoming_before, '[^,]+') do
        expect[#expect + 1] = tonumber(value)
      end
    end
  end
  if expect then
    local values = {}
    local text = redis.call('HGET', KEYS[7], table_id)
    if text then
      for value in string.gmatch(text, '[^,]+') do
        values[#values + 1] = tonumber(value)
      end
    else
      for i = 1, FIELD_COUNT do
        values[i] = 0
      end
    end
    local n = OUTCOME_COUNT
    values[1] = values[1] + 1
    for i = 1, n do
      local p, seen = expect[i], tally.observed[i]
      if seen >= 0 then  -- -1: unknown (a round without cards says nothing of its pairs)
        values[1 + i] = values[1 + i] + seen
        values[1 + n + i] = values[1 + n + i] + p
        values[1 + 2 * n + i] = values[1 + 2 * n + i] + p * (1 - p)
      end
    end
    local side = tally.side
    if side ~= 0 then
      local at = 2 + 3 * n
      values[at + side - 1] = values[at + side - 1] + 1
      if values[at + 3] ~= side then
        values[at + 2] = values[at + 2] + 1
        values[at + 3] = side
      end
    end
    -- table.concat writes numbers with 14 significant digits: plenty for these sums.
    redis.call('HSET', KEYS[7], table_id, table.concat(values, ','))
    if not text then
      redis.call('EXPIRE', KEYS[7], tonumber(ARGV[6]))
    end
  end
  -- Side bets newly exposed in the shoe (one that loses its edge and gains it again: again).
  local before = {}
  if same_shoe then
    for bet in string.gmatch(exposed_before, '[^,]+') do
      before[bet] = true
    end
  end
  local now = {}
  for _, entry in ipairs(watch.exposed) do
    now[#now + 1] = entry[1]
    if not before[entry[1]] then
      raise('side_bet_exposed', entry[2])
    end
  end
  redis.call('HSET', KEYS[6], table_id,
    watch.shoe .. ' ' .. tally.upcoming .. ' ' .. table.concat(now, ','))
end
return raised
""".replace("HEAD_BYTES", "1024")
    .replace("FIELD_COUNT", str(len(drift.FIELDS)))
    .replace("OUTCOME_COUNT", str(len(drift.OUTCOMES))),
    uses=[lobbyupdate.LUA],
)


@dataclass(frozen=True)
class IntegrityApply:
    """Hand a committed write's watch part to the integrity keys (see the module doc)."""

    keys: IntegrityKeys
    index_entries: int = INDEX_ENTRIES

    def keys_of(self, table: str, day: str) -> list[str]:
        k = self.keys
        fixed = [k.applied, k.events, k.index, k.index_old, k.repeated, k.last]
        return [*fixed, k.drift(day), k.found(table)]

    def _args(self, table: str, stored: bytes | str) -> list[Any]:
        return [table, stored, self.index_entries, STREAM_LENGTH, FOUND_PER_TABLE, DAY_SECONDS]

    def queue(self, commands: Any, table: str, day: str, stored: bytes | str) -> None:
        """The update as the write script stored it (passed in: Redis Cluster)."""
        INTEGRITY_APPLY.queue(commands, self.keys_of(table, day), self._args(table, stored))

    def queue_stored(self, commands: Any, table: str, day: str, stored_key: str) -> None:
        """The update read by the script from ``stored_key`` (one Redis server)."""
        keys = [*self.keys_of(table, day), stored_key]
        INTEGRITY_APPLY.queue(commands, keys, self._args(table, ""))


def count_alerts(kinds: list[Any]) -> None:
    """Count the alerts a batch of writes raised (the script's replies) in ``/metrics``."""
    for kind in kinds:
        INTEGRITY_ALERTS.labels(kind.decode() if isinstance(kind, bytes) else kind).inc()
