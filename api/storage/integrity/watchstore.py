"""The integrity watch's keys, read: a table's findings, a day's tallies, the alert stream for
operators who follow or resume it, and a drift alert raised once per table and day.

The write path fills these keys through :mod:`api.storage.integrity.watchapply`; nothing here is on
it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from api.codecs.jsontext import loads
from api.storage.integrity.watchapply import FOUND_PER_TABLE, STREAM_LENGTH, count_alerts
from api.storage.keys import IntegrityKeys
from api.storage.publishing import LEASE
from api.storage.scripts import InlineScript as Script
from api.storage.transport import Transport
from roads.integrity.drift import FIELDS, DayTally, RoundEntry

# Raise an alert once for its reason (a drift alert once per table and day, whoever evaluates
# the day). KEYS: alerted, events,
# the table's findings. ARGV: the reason, table, kind, data JSON, stream length, findings kept.
# Returns 1 when raised.
RAISE_ONCE = Script(
    """
if redis.call('HSETNX', KEYS[1], ARGV[1], 1) == 0 then
  return 0
end
if redis.call('HLEN', KEYS[1]) > ALERTED_KEPT then
  redis.call('DEL', KEYS[1])  -- a bound: reasons this old are not raised again anyway
  redis.call('HSET', KEYS[1], ARGV[1], 1)
end
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'type', ARGV[3],
  'data', ARGV[4], 'table', ARGV[2])
redis.call('LPUSH', KEYS[3], id .. ' ' .. ARGV[3] .. ' ' .. ARGV[4])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[6]) - 1)
return 1
""".replace("ALERTED_KEPT", "100000")
)


# Add a batch of a table's rounds to its day's tally (roads.integrity.drift.FIELDS), the runs
# counted on from the day's last result. KEYS: the day's tallies. ARGV: table, the ADDED fields'
# increments (comma-separated), the batch's results in order ("1"/"2" each), lifetime (seconds).
TALLY_ADD = Script(
    """
local values = {}
local text = redis.call('HGET', KEYS[1], ARGV[1])
if text then
  for value in string.gmatch(text, '[^,]+') do
    values[#values + 1] = tonumber(value)
  end
else
  for i = 1, FIELD_COUNT do
    values[i] = 0
  end
end
local i = 0
for value in string.gmatch(ARGV[2], '[^,]+') do
  i = i + 1
  values[i] = values[i] + tonumber(value)
end
local runs, last = FIELD_COUNT - 1, FIELD_COUNT
for side in string.gmatch(ARGV[3], '%d') do
  side = tonumber(side)
  if values[last] ~= side then
    values[runs] = values[runs] + 1
    values[last] = side
  end
end
redis.call('HSET', KEYS[1], ARGV[1], table.concat(values, ','))
if not text then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
end
return 1
""".replace("FIELD_COUNT", str(len(FIELDS)))
)
# Take up to ARGV[1] of a list's entries, oldest first (the rounds waiting for their tally, the
# anchors waiting for the record's index). KEYS: the list.
TAKE_OLDEST = Script("""
local taken = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('LTRIM', KEYS[1], #taken, -1)
return taken
""")
# Name a shoe a repeat, unless it was named already (by the integrity script, or before).
# KEYS: repeated, events, the table's findings. ARGV: table, shoe, data JSON, stream length,
# findings kept. Returns 1 when raised.
RAISE_REPEATED = Script("""
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'type', 'repeated_shoe',
  'data', ARGV[3], 'table', ARGV[1])
redis.call('LPUSH', KEYS[3], id .. ' repeated_shoe ' .. ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[5]) - 1)
return 1
""")
# Let go of a lock held as ARGV[1]. KEYS: the lock.
UNLOCK = Script("""
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
""")
DAY_SECONDS = 40 * 86_400  # a day's tally is kept 40 days
LAST_ID = f"{2**64 - 1}-{2**64 - 1}"  # the largest stream id


def utc_day(offset_days: int = 0) -> str:
    """The UTC day (``YYYY-MM-DD``) a write is tallied under, ``offset_days`` before today."""
    return time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86_400 * offset_days))


@dataclass(frozen=True, slots=True)
class Alert:
    """One alert as stored: its stream ``id``, ``kind`` and ``data`` (JSON text)."""

    id: str
    kind: str
    data: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.kind, **loads(self.data)}


class IntegrityStore:
    def __init__(self, transport: Transport, keys: IntegrityKeys) -> None:
        self.transport = transport
        self.keys = keys

    def findings(self, table: str) -> list[Alert]:
        """The table's alerts, newest first (the last :data:`FOUND_PER_TABLE`)."""
        stored = self.transport.command("LRANGE", self.keys.found(table), 0, -1)
        found = []
        for entry in stored:
            id, kind, data = entry.decode().split(" ", 2)
            found.append(Alert(id, kind, data))
        return found

    def day(self, day: str) -> dict[str, DayTally]:
        """Every table's tally of ``day`` (``YYYY-MM-DD``, UTC)."""
        stored = self.transport.command("HGETALL", self.keys.drift(day))
        return {table.decode(): DayTally.parse(text) for table, text in stored.items()}

    def after(self, last: str, count: int = 100) -> list[Alert]:
        """The alerts after stream id ``last`` (``-``: from the oldest kept)."""
        if last == LAST_ID:
            return []  # nothing can come after it (and Redis refuses a range from past it)
        first = "-" if last == "-" else f"({last}"
        entries = self.transport.command("XRANGE", self.keys.events, first, "+", "COUNT", count)
        return [_alert(entry_id, fields) for entry_id, fields in entries]

    def newest(self) -> str:
        """The newest alert's id (``0-0`` for none): where a new follower starts."""
        entries = self.transport.command("XREVRANGE", self.keys.events, "+", "-", "COUNT", 1)
        return entries[0][0].decode() if entries else "0-0"

    def take_rounds(self, count: int) -> list[RoundEntry]:
        """Up to ``count`` of the rounds waiting for their day's tally, oldest first (taken:
        nobody else gets them)."""
        taken = self.transport.script(TAKE_OLDEST, [self.keys.rounds], [count])
        return [RoundEntry.parse(entry) for entry in taken]

    def take_anchors(self, count: int) -> list[tuple[str, str, str, int]]:
        """Up to ``count`` of the anchors waiting for the record's index, oldest first: each
        (fingerprint, table, shoe, round)."""
        taken = self.transport.script(TAKE_OLDEST, [self.keys.anchors], [count])
        found = []
        for entry in taken:
            fingerprint, table, shoe, number = entry.decode().split(" ")
            found.append((fingerprint, table, shoe, int(number)))
        return found

    def raise_repeated(self, table: str, shoe: str, data: str) -> bool:
        """Name ``table``'s ``shoe`` a repeat unless it was named already; whether it was now."""
        keys = [self.keys.repeated, self.keys.events, self.keys.found(table)]
        args = [table, shoe, data, STREAM_LENGTH, FOUND_PER_TABLE]
        raised = bool(self.transport.script(RAISE_REPEATED, keys, args))
        if raised:
            count_alerts(["repeated_shoe"])
        return raised

    def add_tally(self, day: str, table: str, added: list[float], sides: str) -> None:
        """Add a batch of ``table``'s rounds to its tally of ``day`` (see TALLY_ADD)."""
        args = [table, ",".join(map(repr, added)), sides, DAY_SECONDS]
        self.transport.script(TALLY_ADD, [self.keys.drift(day)], args)

    def lock(self, holder: str, ttl_ms: int) -> bool:
        """Take the lock of who adds the rounds up, unless another holds it."""
        return bool(self.transport.command("SET", self.keys.folding, holder, "NX", "PX", ttl_ms))

    def unlock(self, holder: str) -> None:
        self.transport.script(UNLOCK, [self.keys.folding], [holder])

    def lease(self, holder: str, ttl_ms: int) -> int:
        """Take or renew the drift evaluator's lease: 0 held by another, 1 renewed, 2 taken."""
        return self.transport.script(LEASE, [self.keys.evaluator], [holder, ttl_ms])

    def raise_drift(self, day: str, table: str, data: str) -> bool:
        """Raise the drift alert of ``table`` on ``day`` unless it was raised already."""
        return self.raise_once(f"drift {day} {table}", table, "drift", data)

    def raise_once(self, reason: str, table: str, kind: str, data: str) -> bool:
        """Raise an alert unless one was raised for ``reason`` already; whether it was."""
        keys = [self.keys.alerted, self.keys.events, self.keys.found(table)]
        args = [reason, table, kind, data, STREAM_LENGTH, FOUND_PER_TABLE]
        raised = bool(self.transport.script(RAISE_ONCE, keys, args))
        if raised:
            count_alerts([kind])
        return raised


def _alert(entry_id: bytes, fields: Any) -> Alert:
    if isinstance(fields, list):
        fields = dict(zip(fields[0::2], fields[1::2], strict=True))
    return Alert(entry_id.decode(), fields[b"type"].decode(), fields[b"data"].decode())
