"""Shoes that left Redis for the record, and tables Redis lost: taken out, and brought back.

With the record on (:mod:`api.record`), Redis is the hot tier. A closed shoe the record holds
in full leaves Redis once ``ROADS_HOT_SECONDS`` old (:meth:`ColdShoes.evict`): its rounds, state
and version go; its id stays in the table's shoe list (a few bytes), so a write or a read of it
knows to ask the record. When read (or corrected) it is brought back (:meth:`ColdShoes.warm`)
with the very records and version it left with, so every answer built from it is byte for byte
what it was, and it leaves again ``ROADS_HOT_SECONDS`` later.

A table whose meta is gone (Redis lost everything: a ``FLUSHALL``, a restart without
persistence) is brought back from the record too (:meth:`ColdShoes.restore_table`): its name,
variant, current shoe and shoe list, its log number at the record's (writes acknowledged but
not yet recorded are lost: the recorder's lag), and its versions and write sequence raised
by a margin, the time of the restore in seconds: above any a reader may have seen (readers keep
answers by version), as no table writes more than once a second on average over the years, and
growing from one restore to the next.

The record is reached through a :class:`ColdSource` (:class:`api.record.history.History`):
storage does not know PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from cachetools import TTLCache

from api.codecs.records import decode as decode_record
from api.storage.keys import Keyspace
from api.storage.scripts import Script
from api.storage.transport import Transport


class TableSource(Protocol):
    name: str | None
    variant: str
    current_shoe: str | None
    retired: bool
    recorded: int
    shoes: list[str]


class ShoeSource(Protocol):
    version: int
    records: list[str]


class ColdSource(Protocol):
    """What the record answers to bring a table or a shoe back."""

    def table(self, table: str) -> TableSource | None: ...

    def rounds(self, table: str, shoe: str) -> ShoeSource | None: ...

    def warmed(self, table: str, shoe: str) -> None: ...


# KEYS: meta, shoe info, rounds, state.  ARGV: shoe, the shoe's version in the record.
# {1}: gone; {0}: kept (the table's current shoe, or a write the record does not hold yet);
# {2}: not here. Every write raises the shoe's version, so the record holds all of the shoe
# when its versions are equal (a table restored after a loss adds its margin to the versions).
EVICT_SHOE = Script("""
local meta = redis.call('HMGET', KEYS[1], 'current', 'margin')
if meta[1] == ARGV[1] then
  return {0}
end
local version = redis.call('HGET', KEYS[2], 'version')
if not version then
  return {2}
end
local recorded = tonumber(ARGV[2])
if tonumber(version) ~= recorded and tonumber(version) ~= recorded + tonumber(meta[2] or '0') then
  return {0}
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
return {1}
""")

# KEYS: meta, shoe info, rounds.  ARGV: the table's margin as read, version (the margin
# added), void count, each round's record in order.
WARM_SHOE = Script("""
if redis.call('EXISTS', KEYS[2]) == 1
    or (redis.call('HGET', KEYS[1], 'margin') or '0') ~= ARGV[1] then
  return 0
end
local count = #ARGV - 3
if count > 0 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 4))
end
redis.call('HSET', KEYS[2], 'version', ARGV[2], 'rounds', count, 'void', ARGV[3])
return 1
""")

# KEYS: meta, shoe list.  ARGV: name ('' none), variant, current ('' none), retired (1/0),
# logged, margin, then the shoe ids oldest first.
RESTORE_TABLE = Script("""
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'variant', ARGV[2], 'logged', ARGV[5], 'seq', ARGV[6],
  'margin', ARGV[6], 'mver', ARGV[6])
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'name', ARGV[1]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'current', ARGV[3]) end
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'retired', '1') end
redis.call('DEL', KEYS[2])
if #ARGV > 6 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 7))
end
return 1
""")


class ColdShoes:
    """Shoes out of Redis and back (see the module doc); ``source`` is the record."""

    def __init__(self, transport: Transport, keys: Keyspace, source: ColdSource) -> None:
        self.transport = transport
        self.keys = keys
        self.source = source
        # Tables and shoes the record did not know, lately: a reader asking for names that do
        # not exist reaches PostgreSQL once in a while, not on every request.
        self._unknown: TTLCache = TTLCache(maxsize=10_000, ttl=5)

    def evict(self, table: str, shoe: str, version: int) -> bool:
        """Take the shoe out of Redis if it is closed and the record holds all of it (it is at
        ``version``, the record's); whether it is out."""
        keys = self.keys.shoe(table, shoe)
        reply = self.transport.script(
            EVICT_SHOE, [keys.table.meta, keys.info, keys.rounds, keys.state], [shoe, version]
        )
        return reply[0] != 0

    def warm(self, table: str, shoe: str) -> bool:
        """Bring the shoe back from the record if it left Redis (or Redis lost it); whether it
        is here now. The table comes back first when Redis lost it too."""
        if (table, shoe) in self._unknown:
            return False
        keys = self.keys.shoe(table, shoe)
        listed, meta = self._listed(keys.table.shoes, keys.table.meta, shoe)
        if not meta:
            if not self.restore_table(table):
                return False
            listed, meta = self._listed(keys.table.shoes, keys.table.meta, shoe)
        if listed is None or not meta:
            return False  # never a shoe of this table: nothing to ask the record
        found = self.source.rounds(table, shoe)
        if found is None:
            self._unknown[(table, shoe)] = True
            return False
        margin = meta.get(b"margin", b"0").decode()
        voids = sum(1 for record in found.records if decode_record(record).get("void"))
        self.transport.script(
            WARM_SHOE,
            [keys.table.meta, keys.info, keys.rounds],
            [margin, found.version + int(margin), voids, *found.records],
        )
        self.source.warmed(table, shoe)
        return True

    def _listed(self, shoes: str, meta: str, shoe: str) -> tuple[int | None, dict]:
        listed, fields = self.transport.multi(
            [("LPOS", shoes, shoe), ("HGETALL", meta)], atomic=False
        )
        return listed, fields

    def restore_table(self, table: str, *, remembered: bool = True) -> bool:
        """Bring the table back from the record when Redis lost it (its meta is gone), with its
        current shoe; whether the record knew it. A write asks the record every time
        (``remembered`` false), so that a table it has just made is never taken as unknown."""
        if remembered and (table, None) in self._unknown:
            return False
        found = self.source.table(table)
        if found is None:
            if remembered:
                self._unknown[(table, None)] = True
            return False
        self._unknown.pop((table, None), None)
        keys = self.keys.table(table)
        args: Sequence[Any] = [
            found.name or "",
            found.variant,
            found.current_shoe or "",
            int(found.retired),
            found.recorded,
            int(time.time()),
            *found.shoes,
        ]
        self.transport.script(RESTORE_TABLE, [keys.meta, keys.shoes], args)
        if found.current_shoe is not None:
            self.warm(table, found.current_shoe)
        return True
