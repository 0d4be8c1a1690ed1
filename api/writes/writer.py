"""A round appended, corrected or voided: read, decide, plan, commit (see :mod:`api.writes`).

Which round may come next is :func:`roads.shoe.check_append`. The next round of a shoe this
process wrote last is computed from what that write left (:mod:`.recentwrites`), without reading
the shoe back; a stale guess costs one retry, never a wrong write: the commit compares.

Many tables' rounds reported together (:meth:`Writer.append_many`): each table's first round is
planned from what this process's last write left or from one read per node, and those plans are
committed together, one round trip per node, every node at once. A write whose read went stale is
computed again as :mod:`.retry` says.

Each write takes ``by``, the name of the API key that asked for it (``""`` for the service's
own), which the write scripts log for the record (:mod:`api.codecs.writelog`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from api.codecs.records import burned_in, differences, round_of, same_round
from api.codecs.roundfacts import NO_FACTS, RoundFacts, in_record, read_place
from api.plan.plan import Base, Kind, Write
from api.plan.planner import plan_append, plan_rewrite
from api.storage.failures import Contended, NotFound
from api.storage.rounds import RoundStore
from api.storage.tables import Tables
from api.storage.writescripts import AppendBase, WriteReply
from api.writes.batch import Item, base_from, first_plans
from api.writes.recentwrites import LastWrite, RecentWrites
from api.writes.refusals import Conflict
from api.writes.retry import retried
from roads import RoadsError, Round
from roads.integrity.shoewatch import WatchSettings
from roads.paytables import PayTable
from roads.rarity import LobbyFigures
from roads.shoe import Verdict, check_append

# How long a process states the lobby's chances with the number of tables it read last.
LOBBY_SIZE_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Written:
    """What a write did: whether it ``changed`` the shoe (false for the identical round sent
    again, a retry), the round's stored ``record``, and the shoe's ``version`` after it."""

    changed: bool
    record: dict[str, Any]
    version: int


Outcome = Written | Exception


class Writer:
    """Every write of this process (one per process, wired in the app factory)."""

    def __init__(
        self,
        store: RoundStore,
        tables: Tables,
        recent: RecentWrites | None = None,
        *,
        watch: WatchSettings | None = None,
        hands: int | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.recent = recent if recent is not None else RecentWrites()
        self.watch = watch  # the integrity watch's settings (None: off)
        self.hands = hands  # the shoe a run's chance is stated for (None: no chance in tiles)
        self._lobby_size = (0, -LOBBY_SIZE_SECONDS)  # (tables, when read)

    def figures(self) -> LobbyFigures | None:
        """What a tile states beside each current run: its chance in a shoe of ``hands`` hands,
        and across the lobby's tables as this process read their number last (at most
        :data:`LOBBY_SIZE_SECONDS` ago: one read, not one a write)."""
        if self.hands is None:
            return None
        tables, read_at = self._lobby_size
        now = time.monotonic()
        if now - read_at >= LOBBY_SIZE_SECONDS:
            tables = self.tables.lobby.size()
            self._lobby_size = (tables, now)
        return LobbyFigures(self.hands, max(tables, 1))

    def paytable(self, name: str) -> PayTable:
        """The pay table ``name`` names (a preset, or the deployment's own)."""
        return self.tables.paytables.resolve(name)

    def priced(self, table: str, shoe: str, records: Sequence[dict[str, Any]]) -> PayTable:
        """What a rewrite of ``shoe`` (its ``records``) is priced under: the pay table in force
        for the table's current shoe (its next round's), the one an older shoe's rounds were
        priced under (its records name it; one recorded before they did: the one in force)."""
        named = in_record(records[-1]).paytable if records else None
        if named is None or shoe == self.tables.current_shoe(table):
            return self.tables.paytable(table)
        return self.paytable(named)

    # -- appending --------------------------------------------------------------------------

    def append(
        self,
        table: str,
        shoe: str,
        number: int,
        round: Round,
        by: str = "",
        facts: RoundFacts = NO_FACTS,
    ) -> Written:
        """Store round ``number`` of the shoe with its ``facts``; the identical round sent again
        (under the same game id, if it has one) is answered as it was (``changed`` false).
        Raises :class:`Conflict` when the round does not fit the shoe or its game id is another
        round's, :class:`Contended` when other writers keep winning, a rules error for a round
        the shoe cannot hold."""
        guess = self.recent.take(table, shoe)

        def attempt() -> Written | None:
            nonlocal guess
            if guess is not None and check_append(guess.head, number) is Verdict.NEXT:
                base: Base | Written | None = guess.base
            else:
                (read,) = self.store.read_bases([(table, shoe)])
                base = self.base_of(table, shoe, number, round, read, facts.game_id)
            guess = None
            if base is None or isinstance(base, Written):
                return base  # the shoe moved on while we read it; or the identical round again
            figures = self.figures()
            plan = plan_append(
                table, shoe, number, round, base, watch=self.watch, figures=figures, facts=facts
            )
            (reply,) = self.store.commit([plan], by)
            return self.settled(plan, reply)

        return retried(shoe, attempt)

    def base_of(
        self,
        table: str,
        shoe: str,
        number: int,
        round: Round,
        read: AppendBase,
        game_id: str | None = None,
    ) -> Base | Written | None:
        """What appending round ``number`` is computed from, given what was ``read``; or the
        answer to the identical round sent again (under the same ``game_id``, when one is
        sent); or ``None`` if the shoe moved on meanwhile. Raises :class:`Conflict` when the
        round does not fit the shoe."""
        head = read.head(shoe)
        verdict = check_append(head, number)
        if verdict is Verdict.REPEAT:
            record = self.store.record(table, shoe, number)
            if record is not None:
                differs = differences(record, round, game_id)
                if not differs:
                    self.store.committed_again(table)
                    return Written(False, record, record["version"])
                raise Conflict(
                    f"round {number} of shoe {shoe} is already stored with different "
                    f"{' and '.join(differs)}; correct it with PUT .../rounds/{number}",
                    expected_round=head.next_round,
                    differs=differs,
                )
        if verdict is Verdict.CLOSED:
            raise Conflict(closed(shoe, head.current or "?"), expected_round=head.next_round)
        if verdict is not Verdict.NEXT:  # a gap, or a repeat whose record is gone
            raise Conflict(
                f"round {number} is not the next round of shoe {shoe}",
                expected_round=head.next_round,
            )
        scorecard = self.store.scorecard_at(table, shoe, read.version, read.state)
        if scorecard is None:
            return None
        return base_from(read, shoe, scorecard, self.tables.paytables.own)

    def settled(self, plan: Write, reply: WriteReply) -> Written | None:
        """The answer when the plan was committed (this process then keeps the scorecard for the
        shoe's next round); ``None`` when the shoe had moved on (compute again). Raises
        :class:`Conflict` when the round's game id is another round's."""
        if reply.game_taken is not None:
            raise game_taken(plan.record["game_id"], reply.game_taken)
        if not reply.committed:
            return None
        if plan.head is not None or reply.current:  # a correction of an older shoe: not kept
            count = plan.scorecard.reported
            own = self.tables.paytables.own(plan.variant)
            kept = LastWrite(plan.shoe, reply.version, count, plan.variant, plan.scorecard, own)
            self.recent.keep(plan.table, kept)
        return Written(True, plan.record, reply.version)

    # -- corrections ------------------------------------------------------------------------

    def replace(self, table: str, shoe: str, number: int, round: Round, by: str = "") -> Written:
        """Correct round ``number`` (a dealer error fixed after the fact)."""
        return self._rewrite("correction", table, shoe, number, lambda old: round, by)

    def void(self, table: str, shoe: str, number: int, by: str = "") -> Written:
        """Cancel round ``number``: it stays in the history, marked, and leaves every road."""
        return self._rewrite("void", table, shoe, number, lambda old: old.voided(), by)

    def _rewrite(
        self,
        kind: Kind,
        table: str,
        shoe: str,
        number: int,
        change: Callable[[Round], Round],
        by: str,
    ) -> Written:
        void = kind == "void"

        def attempt() -> Written | None:
            version, stored, _ = self.store.records(table, shoe)
            if version is None:
                raise NotFound(f"table {table} has no shoe {shoe}")
            if not 1 <= number <= len(stored):
                raise NotFound(f"shoe {shoe} has no round {number} (it has {len(stored)})")
            old = stored[number - 1]
            if old["void"] and not void:
                raise Conflict(f"round {number} of shoe {shoe} is void and cannot be corrected")
            rounds = [round_of(record) for record in stored]
            new = change(rounds[number - 1])
            facts, burned = in_record(old), burned_in(stored)
            if old["void"] or (not void and same_round(old, new)):
                self.store.committed_again(table)
                return Written(False, old, version)
            plan = plan_rewrite(
                kind,
                table,
                shoe,
                number,
                rounds,
                new,
                version=version,
                variant=self.priced(table, shoe, stored),
                watch=self.watch,
                figures=self.figures(),
                facts=facts,
                burned=burned,
            )
            (reply,) = self.store.commit([plan], by)
            return self.settled(plan, reply)

        return retried(shoe, attempt)

    # -- many tables at once ----------------------------------------------------------------

    def append_many(self, items: Sequence[Item], by: str = "") -> list[Outcome]:
        """Store several rounds, of any tables, in order: for each, what :meth:`append` returns
        or the exception it raises for that round (:class:`Conflict`, :class:`Contended` or a
        rules error); an unreachable Redis raises for the whole call. ``by``: the name of the
        key that sent them, logged with each write for the record.

        The first round of each table whose next round it plainly is goes in the one commit of
        every such plan; every other round, and any whose commit found the shoe moved on, then
        goes through :meth:`append` one by one."""
        items = [Item(*item) for item in items]
        outcomes: list[Outcome | None] = [None] * len(items)
        plans = first_plans(self, items, outcomes)
        if plans:
            replies = self.store.commit([plan for _, plan in plans], by)
            for (index, plan), reply in zip(plans, replies, strict=True):
                try:
                    outcomes[index] = self.settled(plan, reply)
                except Conflict as error:
                    outcomes[index] = error
        for index, (table, shoe, number, round, facts) in enumerate(items):
            if outcomes[index] is None:
                try:
                    outcomes[index] = self.append(table, shoe, number, round, by, facts)
                except (Conflict, Contended, NotFound, RoadsError) as error:
                    outcomes[index] = error
        return outcomes  # type: ignore[return-value]


def game_taken(game_id: str, place: str) -> Conflict:
    """The 409 of a round sent under a game id the table has for round ``place`` already."""
    shoe, number = read_place(place)
    return Conflict(
        f"game_id {game_id} is round {number} of shoe {shoe} already",
        game_id=game_id,
        game_shoe=shoe,
        game_round=number,
    )


def closed(shoe: str, current: str) -> str:
    return f"shoe {shoe} is closed: the table's current shoe is {current}"
