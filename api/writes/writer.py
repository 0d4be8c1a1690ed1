"""A round appended, corrected or voided: read, decide, plan, commit (see :mod:`api.writes`).

Which round may come next is :func:`roads.shoe.check_append`. The next round of a shoe this
process wrote last is computed from what that write left (:mod:`.recentwrites`), without reading
the shoe back; a stale guess costs one retry, never a wrong write: the commit compares.

Each write takes ``by``, the name of the API key that asked for it (``""`` for the service's
own), which the write scripts log for the record (:mod:`api.codecs.writelog`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from api.codecs.records import differences, round_of, same_round
from api.plan.plan import Base, Kind, Write
from api.plan.planner import plan_append, plan_rewrite
from api.storage.errors import Contended, NotFound
from api.storage.rounds import RoundStore
from api.storage.states import MAX_ATTEMPTS
from api.storage.tables import Tables
from api.storage.writescripts import AppendBase, WriteReply
from api.writes.errors import Conflict
from api.writes.recentwrites import LastWrite, RecentWrites
from roads import Round
from roads.integrity.shoewatch import WatchSettings
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

    # -- appending --------------------------------------------------------------------------

    def append(self, table: str, shoe: str, number: int, round: Round, by: str = "") -> Written:
        """Store round ``number`` of the shoe; the identical round sent again is answered as it
        was (``changed`` false). Raises :class:`Conflict` when the round does not fit the shoe,
        :class:`Contended` when other writers keep winning, a rules error for a round the shoe
        cannot hold."""
        guess = self.recent.take(table, shoe)
        for _ in range(MAX_ATTEMPTS):
            if guess is not None and check_append(guess.head, number) is Verdict.NEXT:
                base: Base | Written | None = guess.base
            else:
                (read,) = self.store.read_bases([(table, shoe)])
                base = self.base_of(table, shoe, number, round, read)
            guess = None
            if base is None:
                continue  # the shoe moved on while we read it
            if isinstance(base, Written):
                return base  # the identical round again
            plan = plan_append(
                table, shoe, number, round, base, watch=self.watch, figures=self.figures()
            )
            (reply,) = self.store.commit([plan], by)
            done = self.settled(plan, reply)
            if done is not None:
                return done
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    def base_of(
        self, table: str, shoe: str, number: int, round: Round, read: AppendBase
    ) -> Base | Written | None:
        """What appending round ``number`` is computed from, given what was ``read``; or the
        answer to the identical round sent again; or ``None`` if the shoe moved on meanwhile.
        Raises :class:`Conflict` when the round does not fit the shoe."""
        head = read.head(shoe)
        verdict = check_append(head, number)
        if verdict is Verdict.REPEAT:
            record = self.store.record(table, shoe, number)
            if record is not None:
                differs = differences(record, round)
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
        return Base(head, read.version, read.variant, scorecard)

    def settled(self, plan: Write, reply: WriteReply) -> Written | None:
        """The answer when the plan was committed (this process then keeps the scorecard for the
        shoe's next round); ``None`` when the shoe had moved on (compute again)."""
        if not reply.committed:
            return None
        if plan.head is not None or reply.current:  # a correction of an older shoe: not kept
            count = plan.scorecard.reported
            kept = LastWrite(plan.shoe, reply.version, count, plan.variant, plan.scorecard)
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
        for _ in range(MAX_ATTEMPTS):
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
            if old["void"] or (not void and same_round(old, new)):
                self.store.committed_again(table)
                return Written(False, old, version)
            variant = self.tables.variant(table)
            plan = plan_rewrite(
                kind,
                table,
                shoe,
                number,
                rounds,
                new,
                version=version,
                variant=variant,
                watch=self.watch,
                figures=self.figures(),
            )
            (reply,) = self.store.commit([plan], by)
            done = self.settled(plan, reply)
            if done is not None:
                return done
        raise Contended(f"shoe {shoe} is changing too fast; retry")


def closed(shoe: str, current: str) -> str:
    return f"shoe {shoe} is closed: the table's current shoe is {current}"
