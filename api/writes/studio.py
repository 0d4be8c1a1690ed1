"""A studio report between rounds (:mod:`api.codecs.studioevents`), carried out: what each kind
writes, in an order that refuses before it writes.

Everything a report can be refused for (a table the lobby does not list, a cut card's last
round already passed, a burn the shoe cannot hold) is found before the steps that cannot be
taken back; a report refused after its write would be sent again, and a burn sent again
without its ``report_id`` burns its cards twice. A burn sent again under its ``report_id``
changes nothing at all: no event, no status, no log (:mod:`api.writes.burns`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.codecs.jsontext import dumps_text
from api.codecs.shoefacts import Fact, cut_rule, fact_of
from api.codecs.studioevents import FACT_KINDS, STATUS
from api.codecs.tablestatus import status_fields, status_report
from api.storage.failures import NotFound
from api.storage.lobbystore import Lobby
from api.storage.rounds import RoundStore
from api.storage.tables import Tables
from api.writes.burns import burn
from api.writes.refusals import Conflict
from api.writes.writer import Writer


@dataclass(frozen=True, slots=True)
class Studio:
    """What a report touches: the writer (a burn, a cancel's void), the shoes' rounds (a fact's
    round count), the lobby (the status, the event, the shoe's facts) and the tables (the
    record's log)."""

    writer: Writer
    rounds: RoundStore
    lobby: Lobby
    tables: Tables

    def report(self, table: str, body: dict[str, Any], event: dict[str, Any], by: str) -> bool:
        """Carry out ``body`` (its rule checked) whose event is ``event``; ``by``: the name of
        the key that reported it. ``False`` when it changed nothing: a burn sent again under its
        report id, a fact of the shoe sent again. Raises :class:`NotFound` for a table the
        lobby does not list, or a shoe or round a cancel names that it does not have;
        :class:`Conflict` for what the shoe contradicts; a rules error for a burn the shoe
        cannot hold."""
        kind = body["kind"]
        if not self.lobby.lists(table):
            raise _unlisted(table)
        fact = self._fact(table, body) if kind in FACT_KINDS else None
        if kind == "cancel" and "round" in body:
            self.writer.void(table, body["shoe"], body["round"], by)
        if kind == "burn" and "cards" in body:
            burned = burn(
                self.writer, table, body["shoe"], body["cards"], by, body.get("report_id")
            )
            if not burned.changed:
                return False
        if kind in STATUS:
            fields = status_fields(STATUS[kind], None, body.get("reason"))
            if not self.lobby.set_status(table, fields, status_report(table, fields)):
                raise _unlisted(table)
        emitted = self.lobby.emit(table, "studio", dumps_text(event), fact)
        if emitted == "unlisted":
            raise _unlisted(table)
        if emitted == "repeated":
            return False
        self.tables.studio(table, dumps_text(event), by)
        return True

    def _fact(self, table: str, body: dict[str, Any]) -> Fact | None:
        """The fact the report states of its shoe, given the rounds the shoe has; raises
        :class:`Conflict` for one those rounds contradict."""
        rounds = self.rounds.rounds_in(table, body["shoe"])
        contradicted = cut_rule(body, rounds)
        if contradicted is not None:
            raise Conflict(contradicted)
        return fact_of(body, rounds)


def _unlisted(table: str) -> NotFound:
    return NotFound(f"no table {table} in the lobby: name it or deal its first round")
