"""The integrity watch's keys, read: a table's findings, a day's tallies, the alert stream for
operators who follow or resume it, and a drift alert raised once per table and day.

The write path fills these keys through :mod:`api.storage.integrity.watchapply`; nothing here is on
it.
"""

from __future__ import annotations

import time
from typing import Any

from api.codecs import alerts, tallies
from api.codecs.alerts import Alert
from api.codecs.anchors import Anchor
from api.codecs.tallies import decode_round, decode_tally
from api.storage import leases
from api.storage.integrity.watchapply import FOUND_PER_TABLE, STREAM_LENGTH, count_alerts
from api.storage.keys import IntegrityKeys
from api.storage.luascript import Script
from api.storage.transport import Transport
from roads.integrity.drift import FIELDS, DayTally, RoundEntry

RAISE_ONCE = Script(__package__, "raise_once.lua", uses=[alerts.LUA])
TALLY_ADD = Script(__package__, "tally_add.lua", uses=[tallies.LUA])
TAKE_OLDEST = Script(__package__, "take_oldest.lua")
RAISE_REPEATED = Script(__package__, "raise_repeated.lua", uses=[alerts.LUA])
UNLOCK = Script(__package__, "unlock.lua")
DEALER = (
    "dealer:"  # where a dealer's findings are kept: as a table named so's (no table id has ":")
)
ALERTED_KEPT = 100_000  # reasons raised kept at the most (a drift alert's: one per table and day)
DAY_SECONDS = 40 * 86_400  # a day's tally is kept 40 days
LAST_ID = f"{2**64 - 1}-{2**64 - 1}"  # the largest stream id


def utc_day(offset_days: int = 0) -> str:
    """The UTC day (``YYYY-MM-DD``) a write is tallied under, ``offset_days`` before today."""
    return time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86_400 * offset_days))


class IntegrityStore:
    def __init__(self, transport: Transport, keys: IntegrityKeys) -> None:
        self.transport = transport
        self.keys = keys

    def findings(self, table: str) -> list[Alert]:
        """The table's alerts, newest first (the last :data:`FOUND_PER_TABLE`)."""
        stored = self.transport.command("LRANGE", self.keys.found(table), 0, -1)
        return [Alert.decode(entry) for entry in stored]

    def day(self, day: str) -> dict[str, DayTally]:
        """Every table's tally of ``day`` (``YYYY-MM-DD``, UTC)."""
        stored = self.transport.command("HGETALL", self.keys.drift(day))
        return {table.decode(): decode_tally(text) for table, text in stored.items()}

    def dealers_day(self, day: str) -> dict[str, DayTally]:
        """Every dealer's tally of ``day`` (the rounds reported with their dealer)."""
        stored = self.transport.command("HGETALL", self.keys.dealers(day))
        return {dealer.decode(): decode_tally(text) for dealer, text in stored.items()}

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
        taken = self.transport.script(TAKE_OLDEST, list_key=self.keys.rounds, count=count)
        return [decode_round(entry) for entry in taken]

    def take_anchors(self, count: int) -> list[Anchor]:
        """Up to ``count`` of the anchors waiting for the record's index, oldest first."""
        taken = self.transport.script(TAKE_OLDEST, list_key=self.keys.anchors, count=count)
        return [Anchor.decode(entry) for entry in taken]

    def raise_repeated(self, table: str, shoe: str, data: str) -> bool:
        """Name ``table``'s ``shoe`` a repeat unless it was named already; whether it was now."""
        raised = bool(
            self.transport.script(
                RAISE_REPEATED,
                repeated_key=self.keys.repeated,
                alerts_key=self.keys.events,
                found_key=self.keys.found(table),
                table_id=table,
                shoe=shoe,
                data=data,
                alerts_length=STREAM_LENGTH,
                found_kept=FOUND_PER_TABLE,
            )
        )
        if raised:
            count_alerts(["repeated_shoe"])
        return raised

    def add_tally(
        self, day: str, table: str, added: list[float], sides: str, *, dealer: bool = False
    ) -> None:
        """Add a batch of ``table``'s rounds to its tally of ``day`` (with ``dealer``, a batch
        of the dealer ``table``'s to the dealer's): ``added`` to the numbers before the runs,
        and ``sides`` (its Banker/Player results in order, ``"1"``/``"2"`` each) counted into
        the runs (``tally_add.lua``)."""
        self.transport.script(
            TALLY_ADD,
            tally_key=self.keys.dealers(day) if dealer else self.keys.drift(day),
            table_id=table,
            added=",".join(map(repr, added)),
            sides=sides,
            lifetime=DAY_SECONDS,
            field_count=len(FIELDS),
        )

    def lock(self, holder: str, ttl_ms: int) -> bool:
        """Take the lock of who adds the rounds up, unless another holds it."""
        return bool(self.transport.command("SET", self.keys.folding, holder, "NX", "PX", ttl_ms))

    def unlock(self, holder: str) -> None:
        self.transport.script(UNLOCK, lock_key=self.keys.folding, holder=holder)

    def lease(self, holder: str, ttl_ms: int) -> int:
        """Take or renew the drift evaluator's lease: 0 held by another, 1 renewed, 2 taken."""
        return leases.take(self.transport, self.keys.evaluator, holder, ttl_ms)

    def raise_drift(self, day: str, table: str, data: str) -> bool:
        """Raise the drift alert of ``table`` on ``day`` unless it was raised already."""
        return self.raise_once(f"drift {day} {table}", table, "drift", data)

    def raise_dealer_drift(self, day: str, dealer: str, data: str) -> bool:
        """Raise the drift alert of ``dealer`` on ``day`` unless it was raised already (kept
        with the findings of ``dealer:ID``, as a table's are with its own; in the alert stream it
        names no table: its data names the dealer)."""
        reason = f"dealer_drift {day} {dealer}"
        return self.raise_once(reason, DEALER + dealer, "dealer_drift", data, of_table=False)

    def raise_once(
        self, reason: str, table: str, kind: str, data: str, *, of_table: bool = True
    ) -> bool:
        """Raise an alert unless one was raised for ``reason`` already; whether it was. It is
        kept with ``table``'s findings, and names it in the alert stream when ``of_table``."""
        raised = bool(
            self.transport.script(
                RAISE_ONCE,
                alerted_key=self.keys.alerted,
                alerts_key=self.keys.events,
                found_key=self.keys.found(table),
                reason=reason,
                table_id=table if of_table else "",
                kind=kind,
                data=data,
                alerts_length=STREAM_LENGTH,
                found_kept=FOUND_PER_TABLE,
                alerted_kept=ALERTED_KEPT,
            )
        )
        if raised:
            count_alerts([kind])
        return raised


def _alert(entry_id: bytes, fields: Any) -> Alert:
    if isinstance(fields, list):
        fields = dict(zip(fields[0::2], fields[1::2], strict=True))
    return Alert(entry_id.decode(), fields[b"type"].decode(), fields[b"data"].decode())
