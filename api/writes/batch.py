"""Rounds of many tables reported together (a game server running many tables): each table's
first round planned from what this process's last write left or from one read per node, and all
those plans committed together, one round trip per node, every node at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from api.codecs.stamps import at_version
from api.plan.plan import Base, Write
from api.plan.planner import plan_append
from api.storage.errors import Contended, NotFound
from api.storage.writescripts import AppendBase
from api.writes.errors import Conflict
from api.writes.writer import Writer, Written
from roads import RoadsError, Round, Scorecard
from roads.shoe import Verdict, check_append

Item = tuple[str, str, int, Round]  # table, shoe, round number, round
Outcome = Written | Exception


def append_many(writer: Writer, items: Sequence[Item], by: str = "") -> list[Outcome]:
    """Store several rounds, of any tables, in order: for each, what :meth:`Writer.append`
    returns or the exception it raises for that round (:class:`Conflict`, :class:`Contended`
    or a rules error); an unreachable Redis raises for the whole call. ``by``: the name of the
    key that sent them, logged with each write for the record.

    The first round of each table whose next round it plainly is goes in the one commit of
    every such plan; every other round, and any whose commit found the shoe moved on, then goes
    through :meth:`Writer.append` one by one."""
    outcomes: list[Outcome | None] = [None] * len(items)
    plans = _first_plans(writer, items, outcomes)
    if plans:
        replies = writer.store.commit([plan for _, plan in plans], by)
        for (index, plan), reply in zip(plans, replies, strict=True):
            outcomes[index] = writer.settled(plan, reply)
    for index, (table, shoe, number, round) in enumerate(items):
        if outcomes[index] is None:
            try:
                outcomes[index] = writer.append(table, shoe, number, round, by)
            except (Conflict, Contended, NotFound, RoadsError) as error:
                outcomes[index] = error
    return outcomes  # type: ignore[return-value]


def _first_plans(
    writer: Writer, items: Sequence[Item], outcomes: list[Outcome | None]
) -> list[tuple[int, Write]]:
    """The plan of each table's first round that plainly comes next (a rules error is that
    round's outcome)."""
    seen: set[str] = set()
    bases: list[tuple[int, Base]] = []
    unknown: list[int] = []
    guesses = {}
    for index, (table, shoe, number, _) in enumerate(items):
        if table in seen:
            continue  # a table's later rounds follow its first one, one by one
        seen.add(table)
        guess = writer.recent.take_next(table, shoe, number)
        if guess is None:
            unknown.append(index)
        else:
            bases.append((index, guess.base))
            guesses[index] = guess
    reads = writer.store.read_bases([items[index][:2] for index in unknown])
    for index, read in zip(unknown, reads, strict=True):
        base = _plain_base(read, items[index][1], items[index][2])
        if base is not None:
            bases.append((index, base))
    plans = []
    figures = writer.figures()
    for index, base in bases:
        try:
            plan = plan_append(*items[index], base, watch=writer.watch, figures=figures)
            plans.append((index, plan))
        except RoadsError as error:
            outcomes[index] = error
            if index in guesses:  # the plan left its scorecard unchanged: still good
                writer.recent.keep(items[index][0], guesses[index])
    return plans


def _plain_base(read: AppendBase, shoe: str, number: int) -> Base | None:
    """The base of an append when the round plainly comes next and the shoe's cached state is
    current (or it has no round yet); else ``None``: :meth:`Writer.append` then reads again and
    answers (a repeat, a conflict, a rebuild from the rounds)."""
    head = read.head(shoe)
    if check_append(head, number) is not Verdict.NEXT:
        return None
    if read.version == 0:
        return Base(head, 0, read.variant, Scorecard.from_rounds([]))
    cached = at_version(read.state, read.version)
    if cached is None:
        return None
    return Base(head, read.version, read.variant, Scorecard.from_bytes(cached))
