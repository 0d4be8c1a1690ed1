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

The record is reached through a :class:`ColdSource` (:class:`api.record.recordreads.RecordReads`):
storage does not know PostgreSQL. What the source hands back is rebuilt from the bytes the
record's chain covers, the chain checked (:mod:`api.record.readback`); a shoe whose chain
breaks is refused (:class:`RecordTampered`, a 409 naming the shoe and the first bad write), never
brought back, and a ``record_tampered`` alert is raised on the operators' integrity stream once
per shoe (``roads_integrity_alerts_total{kind="record_tampered"}``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cachetools import TTLCache

from api.codecs import roundfacts
from api.codecs.jsontext import dumps_text
from api.codecs.records import decode as decode_record
from api.storage.integrity.watchstore import IntegrityStore
from api.storage.keys import Keyspace
from api.storage.luascript import Script
from api.storage.transport import Transport

T = TypeVar("T")


class RecordTampered(Exception):
    """What the record holds of a shoe (or of a table's own writes, ``shoe`` ``""``) fails its
    chain at write ``number`` (``None``: it holds none of the shoe's writes): the shoe is not
    served (409) and an ``record_tampered`` alert is raised once (:meth:`ColdShoes.warm`)."""

    def __init__(self, table: str, shoe: str, number: int | None, round: Any, reason: str) -> None:
        self.table, self.shoe, self.number, self.reason = table, shoe, number, reason
        self.round = round if isinstance(round, int) and not isinstance(round, bool) else None
        where = "" if number is None else f" at write {number}"
        if self.round is not None:
            where += f" (round {self.round})"
        what = f"shoe {shoe} of table {table}" if shoe else f"the own writes of table {table}"
        super().__init__(
            f"the record of {what} fails its chain{where}: {reason}; it is not served, and the "
            "operators are alerted"
        )

    def alert(self) -> dict[str, Any]:
        """The alert's data (``record_tampered`` on the integrity stream)."""
        return {
            "table": self.table,
            "shoe": self.shoe,
            "write": self.number,
            "round": self.round,
            "reason": self.reason,
        }


class TableSource(Protocol):
    name: str | None
    variant: str
    current_shoe: str | None
    retired: bool
    recorded: int
    shoes: list[str]
    limits: dict[str, Any] | None
    paytables: tuple[tuple[str, str], ...]  # the documents of those not presets, by name
    waits: bool  # the last pay table set waits for the table's next shoe
    before: str  # the pay table in force before it


class ShoeSource(Protocol):
    version: int
    records: list[str]


class ColdSource(Protocol):
    """What the record answers to bring a table or a shoe back. Readers' asks are bounded
    (one more is :class:`~api.record.database.RecordBusy`, a 503 at once); a writer's
    (``writing``) is not, so a crowd of readers asking for names that do not exist never
    starves a write to a new table."""

    def table(self, table: str, *, writing: bool = False) -> TableSource | None: ...

    def rounds(self, table: str, shoe: str, *, writing: bool = False) -> ShoeSource | None: ...

    def warmed(self, table: str, shoe: str) -> None: ...


EVICT_SHOE = Script(__package__, "evict_shoe.lua", uses=[roundfacts.LUA])
WARM_SHOE = Script(__package__, "warm_shoe.lua", uses=[roundfacts.LUA])
RESTORE_TABLE = Script(__package__, "restore_table.lua")


KIND = "record_tampered"  # the alert of a shoe whose record fails its chain


def paytables_of(found: TableSource, current: ShoeSource | None) -> tuple[str, str | None]:
    """The pay table in force at a table brought back, and the one waiting for its next shoe
    (``None``: none). A pay table its last table write made wait is in force once its current
    shoe's rounds are priced under it (their records name it), else it still waits."""
    if not found.waits:
        return found.variant, None
    last = decode_record(current.records[-1]) if current is not None and current.records else {}
    priced = last.get("paytable") or found.before
    return (found.variant, None) if priced == found.variant else (priced, found.variant)


class ColdShoes:
    """Shoes out of Redis and back (see the module doc); ``source`` is the record."""

    def __init__(self, transport: Transport, keys: Keyspace, source: ColdSource) -> None:
        self.transport = transport
        self.keys = keys
        self.source = source
        self.alerts = IntegrityStore(transport, keys.integrity)
        # Tables and shoes the record did not know, lately: a reader asking for names that do
        # not exist reaches PostgreSQL once in a while, not on every request.
        self._unknown: TTLCache = TTLCache(maxsize=10_000, ttl=5)

    def evict(self, table: str, shoe: str, version: int) -> bool:
        """Take the shoe out of Redis if it is closed and the record holds all of it (it is at
        ``version``, the record's); whether it is out."""
        keys = self.keys.shoe(table, shoe)
        reply = self.transport.script(
            EVICT_SHOE,
            meta_key=keys.table.meta,
            info_key=keys.info,
            rounds_key=keys.rounds,
            state_key=keys.state,
            games_key=keys.table.games,
            shoe=shoe,
            recorded=version,
        )
        return reply[0] != 0

    def warm(self, table: str, shoe: str, *, writing: bool = False) -> bool:
        """Bring the shoe back from the record if it left Redis (or Redis lost it); whether it
        is here now. The table comes back first when Redis lost it too. ``writing``: for a
        write (see :class:`ColdSource`)."""
        if (table, shoe) in self._unknown:
            return False
        keys = self.keys.shoe(table, shoe)
        listed, meta = self._listed(keys.table.shoes, keys.table.meta, shoe)
        if not meta:
            if not self.restore_table(table, remembered=not writing):
                return False
            listed, meta = self._listed(keys.table.shoes, keys.table.meta, shoe)
        if listed is None or not meta:
            return False  # never a shoe of this table: nothing to ask the record
        found = self.checked(self.source.rounds, table, shoe, writing=writing)
        if found is None:
            self._unknown[(table, shoe)] = True
            return False
        self._put(table, shoe, found, meta.get(b"margin", b"0").decode())
        return True

    def _put(self, table: str, shoe: str, found: Any, margin: str) -> None:
        """Write the shoe's rounds read from the record into Redis (unless it is there)."""
        keys = self.keys.shoe(table, shoe)
        voids = sum(1 for record in found.records if decode_record(record).get("void"))
        self.transport.script(
            WARM_SHOE,
            meta_key=keys.table.meta,
            info_key=keys.info,
            rounds_key=keys.rounds,
            games_key=keys.table.games,
            shoe=shoe,
            margin=margin,
            version=found.version + int(margin),
            voids=voids,
            records=found.records,
        )
        self.source.warmed(table, shoe)

    def checked(self, read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``read(*args, **kwargs)`` from the record; a chain that breaks raises the
        ``record_tampered`` alert (once per shoe, whoever finds it) before it is refused."""
        try:
            return read(*args, **kwargs)
        except RecordTampered as broken:
            reason = f"record_tampered {broken.table} {broken.shoe}"
            self.alerts.raise_once(reason, broken.table, KIND, dumps_text(broken.alert()))
            raise

    def _listed(self, shoes: str, meta: str, shoe: str) -> tuple[int | None, dict]:
        listed, fields = self.transport.multi(
            [("LPOS", shoes, shoe), ("HGETALL", meta)], atomic=False
        )
        return listed, fields

    def restore_table(self, table: str, *, remembered: bool = True) -> bool:
        """Bring the table back from the record when Redis lost it (its meta is gone), with its
        current shoe; whether the record knew it. A write asks the record every time
        (``remembered`` false), so that a table it has just made is never taken as unknown, and
        asks as a writer (see :class:`ColdSource`)."""
        if remembered and (table, None) in self._unknown:
            return False
        found = self.checked(self.source.table, table, writing=not remembered)
        if found is None:
            if remembered:
                self._unknown[(table, None)] = True
            return False
        self._unknown.pop((table, None), None)
        # The current shoe is read before anything is restored: a table brought back without
        # its current shoe (the record busy, or the shoe refused) would take that shoe's next
        # write as its first round. Either both come back or neither does.
        current = None
        if found.current_shoe is not None:
            current = self.checked(
                self.source.rounds, table, found.current_shoe, writing=not remembered
            )
        keys = self.keys.table(table)
        margin = int(time.time())
        in_force, waiting = paytables_of(found, current)
        documents = dict(found.paytables)
        for name in (in_force, waiting):  # a name is one pay table for ever: kept if Redis has it
            if name in documents:
                self.transport.command("HSETNX", self.keys.lobby.paytables, name, documents[name])
        self.transport.script(
            RESTORE_TABLE,
            meta_key=keys.meta,
            shoes_key=keys.shoes,
            name=found.name or "",
            variant=in_force,
            next_variant=waiting or "",
            limits=dumps_text(found.limits) if found.limits else "",
            current=found.current_shoe or "",
            retired=int(found.retired),
            logged=found.recorded,
            margin=margin,
            shoes=found.shoes,
        )
        if current is not None:
            restored = self.transport.multi([("HGET", keys.meta, "margin")], atomic=False)[0]
            self._put(table, found.current_shoe, current, (restored or b"0").decode())
        return True
