"""The integrity watch's part of the lobby script: a committed write's part
(:mod:`api.codecs.watchupdate`), applied by :data:`api.storage.lobbyscript.LOBBY_PUBLISH` in the
same call as the lobby update, so once and in table write order like it (its keys follow the
lobby's; with the watch off they are not passed and nothing of this runs).

:data:`LUA` defines ``watch_apply(table_id, part, wk, wa)``: it raises the plan's findings;
looks each anchor up in the k-gram index and names the earlier table, shoe and round of the
first one another shoe holds (``repeated_shoe``, once per shoe), indexing the others (and, with
the record on, handing them to the record's lasting index: ``anchors``); adds the
round, with the chances the table's previous append left for it (``last``), to the rounds
waiting for their day's tally (``rounds``: the drift evaluator adds them up, off the write path);
and raises each open side bet newly exposed in the shoe. Findings go to the alert
stream and to the table's list of findings. The index keeps two generations: when the newer
holds ``wa.index`` entries it becomes the older, and the oldest go. It returns the kinds raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from api.metrics import INTEGRITY_ALERTS
from api.storage.keys import IntegrityKeys

STREAM_LENGTH = 10_000  # alerts kept for operators who resume (approximate, trimmed by Redis)
FOUND_PER_TABLE = 500  # findings kept per table for its answer
# Rounds waiting to be tallied (the drift evaluator takes them each minute), and anchors waiting
# for the record's index (the recorder takes them each pass), at the most.
ROUNDS_KEPT = 1_000_000
INDEX_ENTRIES = 1_000_000  # k-grams in each of the index's two generations
#: The watch's keys in the lobby script's KEYS, in order (``IntegrityApply.keys_of``).
KEY_NAMES = ("events", "index", "index_old", "repeated", "last", "rounds", "anchors", "found")
#: Its arguments, after the lobby's (``IntegrityApply.args``).
ARG_NAMES = ("index", "stream", "found", "rounds", "day", "record")

# A queue no process took from (no write for that long) is dropped: a cache of work, not data.
QUEUE_SECONDS = 2 * 86_400

# wk: the watch's keys by name (KEY_NAMES), wa: its arguments by name (ARG_NAMES).
LUA = """
local function watch_apply(table_id, part, wk, wa)
  -- The keys by name, bound once: each one the script was handed in KEYS.
  local events_key, index_key, index_old_key = wk.events, wk.index, wk.index_old
  local repeated_key, last_key, rounds_key, found_key = wk.repeated, wk.last, wk.rounds, wk.found
  local anchors_key = wk.anchors
  local watch = cjson.decode(part)
  local raised = {}
  local function raise(kind, data)
    local id = redis.call('XADD', events_key, 'MAXLEN', '~', wa.stream, '*', 'type', kind,
      'data', data, 'table', table_id)
    redis.call('LPUSH', found_key, id .. ' ' .. kind .. ' ' .. data)
    redis.call('LTRIM', found_key, 0, tonumber(wa.found) - 1)
    raised[#raised + 1] = kind
  end
  for _, finding in ipairs(watch.findings) do
    raise(finding[1], finding[2])
  end
  -- The k-gram index: fingerprint -> "table shoe round" of its first sighting.
  local here = table_id .. ' ' .. watch.shoe
  local named = redis.call('HGET', repeated_key, table_id) == watch.shoe
  for _, anchor in ipairs(watch.anchors) do
    local fp, round = anchor[1], anchor[2]
    local seen = redis.call('HGET', index_key, fp) or redis.call('HGET', index_old_key, fp)
    if not seen then
      redis.call('HSET', index_key, fp, here .. ' ' .. round)
      if wa.record == '1' then  -- for the record's lasting index (api/record/kgrams.py)
        redis.call('RPUSH', anchors_key, fp .. ' ' .. here .. ' ' .. round)
        redis.call('LTRIM', anchors_key, -tonumber(wa.rounds), -1)
        redis.call('EXPIRE', anchors_key, QUEUE_SECONDS)
      end
    else
      local t, s, r = string.match(seen, '^(%S+) (%S+) (%d+)$')
      if (t ~= table_id or s ~= watch.shoe) and not named then
        named = true
        redis.call('HSET', repeated_key, table_id, watch.shoe)
        raise('repeated_shoe', cjson.encode({table = table_id, shoe = watch.shoe,
          round = watch.round, from_round = round,
          earlier = {table = t, shoe = s, round = tonumber(r)}}))
      end
    end
  end
  if redis.call('HLEN', index_key) >= tonumber(wa.index) then
    redis.call('RENAME', index_key, index_old_key)
  end
  -- What the table's last append left: its shoe, the next round's chances, the side bets exposed.
  local shoe_before, upcoming_before, exposed_before = nil, nil, ''
  local last = redis.call('HGET', last_key, table_id)
  if last then
    shoe_before, upcoming_before, exposed_before = string.match(last, '^(%S+) (%S+) ?(.*)$')
  end
  local same_shoe = shoe_before == watch.shoe
  -- The round for its day's tally, against the chances the shoe's previous append left for it
  -- (a shoe's first round: a fresh shoe's), added up off the write path
  -- (api.live.drift.DriftWatch.fold; roads.integrity.drift.RoundEntry).
  local tally = watch.tally
  if tally ~= nil and tally ~= cjson.null then
    local expect = tally.expect
    if expect == cjson.null then
      expect = same_shoe and upcoming_before or nil
    end
    if expect then
      redis.call('RPUSH', rounds_key, table_id .. ' ' .. wa.day .. ' ' .. tally.observed .. ' '
        .. tally.side .. ' ' .. expect)
      redis.call('LTRIM', rounds_key, -tonumber(wa.rounds), -1)
      redis.call('EXPIRE', rounds_key, QUEUE_SECONDS)
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
    redis.call('HSET', last_key, table_id,
      watch.shoe .. ' ' .. tally.upcoming .. ' ' .. table.concat(now, ','))
  end
  return raised
end
""".replace("QUEUE_SECONDS", str(QUEUE_SECONDS))


@dataclass(frozen=True)
class IntegrityApply:
    """The watch's keys and arguments, which the lobby script takes after its own."""

    keys: IntegrityKeys
    index_entries: int = INDEX_ENTRIES
    recording: bool = False  # the record is on: new anchors also go to its lasting index

    @cached_property
    def _fixed(self) -> list[str]:
        k = self.keys
        return [k.events, k.index, k.index_old, k.repeated, k.last]

    def keys_of(self, table: str) -> list[str]:
        """The keys of a write of ``table``."""
        return [*self._fixed, self.keys.rounds, self.keys.anchors, self.keys.found(table)]

    def args(self, day: str) -> list[Any]:
        """The arguments of a write on ``day`` (UTC, ``YYYY-MM-DD``)."""
        record = int(self.recording)
        return [self.index_entries, STREAM_LENGTH, FOUND_PER_TABLE, ROUNDS_KEPT, day, record]


def count_alerts(kinds: list[Any]) -> None:
    """Count the alerts a batch of writes raised (the lobby script's replies) in ``/metrics``."""
    for kind in kinds:
        INTEGRITY_ALERTS.labels(kind.decode() if isinstance(kind, bytes) else kind).inc()
