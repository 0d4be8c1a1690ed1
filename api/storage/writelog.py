"""The Redis side of the record: each table's log of committed writes (``{t:TABLE}:log``, see
:mod:`api.codecs.writelog`), read by the recorder after the last number it recorded and trimmed
once the record holds it; the recorder's lease and state; the tables there are.

With the record off the scripts log nothing (:func:`clock`'s ``at`` is empty) and no key here
is written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from api.codecs.writelog import LoggedWrite, entry_id
from api.storage import leases
from api.storage.keys import Keyspace
from api.storage.transport import Transport, queue_each

Clock = Callable[[], str]  # a write's ``at`` for its log entry: milliseconds, or "" (no log)


def clock(on: bool) -> Clock:
    """The clock the write scripts are handed: the time in milliseconds, or ``""`` (the record
    is off: nothing is logged)."""
    if not on:
        return lambda: ""
    return lambda: str(time.time_ns() // 1_000_000)


class WriteLog:
    """The tables' logs, read and trimmed by the one recorder of a deployment."""

    def __init__(self, transport: Transport, keys: Keyspace) -> None:
        self.transport = transport
        self.keys = keys

    def tables(self) -> list[str]:
        """Every table the lobby lists, retired ones too (the recorder's sweep)."""
        lobby = self.keys.lobby
        listed, retired = self.transport.multi(
            [("HKEYS", lobby.tables), ("HKEYS", lobby.retired)], atomic=False
        )
        return sorted({name.decode() for name in [*listed, *retired]})

    def count_tables(self) -> int:
        """How many tables the lobby lists, retired ones too (it grows with each new table and
        never shrinks: retiring moves a table from one list to the other)."""
        lobby = self.keys.lobby
        listed, retired = self.transport.multi(
            [("HLEN", lobby.tables), ("HLEN", lobby.retired)], atomic=False
        )
        return int(listed) + int(retired)

    def after(self, positions: dict[str, int], count: int) -> dict[str, list[LoggedWrite]]:
        """Each table's logged writes after its number in ``positions``, ``count`` at most,
        oldest first: one round trip per node."""
        tables = list(positions)
        found: dict[str, list[LoggedWrite]] = {}

        def queue(table: str) -> Callable[[Any], None]:
            start = entry_id(positions[table] + 1)
            log = self.keys.table(table).log
            return lambda commands: commands.execute_command(
                "XRANGE", log, start, "+", "COUNT", count
            )

        for group, replies in self._each_node(tables, queue):
            for table, reply in zip(group, replies, strict=True):
                found[table] = [
                    LoggedWrite.decode(table, entry, _pairs(fields)) for entry, fields in reply
                ]
        return found

    def trim(self, positions: dict[str, int]) -> None:
        """Drop each table's entries up to its number in ``positions`` (the record has them)."""

        def queue(table: str) -> Callable[[Any], None]:
            keep = entry_id(positions[table] + 1)
            log = self.keys.table(table).log
            return lambda commands: commands.execute_command("XTRIM", log, "MINID", keep)

        self._each_node(list(positions), queue)

    def pending(self, tables: Sequence[str]) -> dict[str, int]:
        """Each table's last logged number (0 for none)."""

        def queue(table: str) -> Callable[[Any], None]:
            meta = self.keys.table(table).meta
            return lambda commands: commands.execute_command("HGET", meta, "logged")

        numbers: dict[str, int] = {}
        for group, replies in self._each_node(list(tables), queue):
            for table, reply in zip(group, replies, strict=True):
                numbers[table] = int(reply or 0)
        return numbers

    def lease(self, holder: str, ttl_ms: int) -> int:
        """Take or renew the recorder's lease: 0 held by another, 1 renewed, 2 taken."""
        return leases.take(self.transport, self.keys.lobby.recorder, holder, ttl_ms)

    def report(self, behind_ms: int) -> None:
        """Keep the recorder's lag where every process reads it (``/readyz``): the ``at`` of
        the oldest write not yet recorded, 0 for none."""
        self.transport.command("SET", self.keys.lobby.record_lag, behind_ms)

    def behind_since(self) -> int:
        """The ``at`` (milliseconds) of the oldest write the recorder last found unrecorded; 0
        when it had recorded everything."""
        return int(self.transport.command("GET", self.keys.lobby.record_lag) or 0)

    def _each_node(
        self, tables: list[str], queue: Callable[[str], Callable[[Any], None]]
    ) -> list[tuple[list[str], list]]:
        if not tables:
            return []
        return self.transport.on_each_node(
            tables,
            lambda table: self.keys.table(table).meta,
            lambda group: queue_each([queue(table) for table in group]),
            wait=False,
        )


def _pairs(fields: Any) -> dict:
    if isinstance(fields, dict):
        return fields
    return dict(zip(fields[::2], fields[1::2], strict=True))
