"""The integrity watch's keys, read: a table's findings, a day's tallies, the alert stream for
operators who follow or resume it, and a drift alert raised once per table and day.

The write path fills these keys through :mod:`api.storage.integrityscript`; nothing here is on
it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.codecs.jsontext import loads
from api.storage.integrityscript import FOUND_PER_TABLE, STREAM_LENGTH, count_alerts
from api.storage.keys import IntegrityKeys
from api.storage.scripts import Script
from api.storage.transport import Transport
from roads.integrity.drift import DayTally

# Raise a drift alert once per table and day (a process that evaluates the day again, or two at
# once, raise nothing more). KEYS: alerted, events, the table's findings.
# ARGV: "DAY TABLE", table, data JSON, stream length, findings kept. Returns 1 when raised.
DRIFT_RAISE = Script("""
if redis.call('HSETNX', KEYS[1], ARGV[1], 1) == 0 then
  return 0
end
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'type', 'drift',
  'data', ARGV[3], 'table', ARGV[2])
redis.call('LPUSH', KEYS[3], id .. ' drift ' .. ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[5]) - 1)
return 1
""")


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
        first = "-" if last == "-" else f"({last}"
        entries = self.transport.command("XRANGE", self.keys.events, first, "+", "COUNT", count)
        return [_alert(entry_id, fields) for entry_id, fields in entries]

    def newest(self) -> str:
        """The newest alert's id (``0-0`` for none): where a new follower starts."""
        entries = self.transport.command("XREVRANGE", self.keys.events, "+", "-", "COUNT", 1)
        return entries[0][0].decode() if entries else "0-0"

    def raise_drift(self, day: str, table: str, data: str) -> bool:
        """Raise the drift alert of ``table`` on ``day`` unless it was raised already."""
        keys = [self.keys.alerted, self.keys.events, self.keys.found(table)]
        args = [f"{day} {table}", table, data, STREAM_LENGTH, FOUND_PER_TABLE]
        raised = bool(self.transport.script(DRIFT_RAISE, keys, args))
        if raised:
            count_alerts(["drift"])
        return raised


def _alert(entry_id: bytes, fields: Any) -> Alert:
    if isinstance(fields, list):
        fields = dict(zip(fields[0::2], fields[1::2], strict=True))
    return Alert(entry_id.decode(), fields[b"type"].decode(), fields[b"data"].decode())
