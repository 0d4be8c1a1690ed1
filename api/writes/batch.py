"""Many tables' rounds at once (:meth:`api.writes.writer.Writer.append_many`): each table's first
round that plainly comes next is planned from this process's last write to the table or from one
read per node, so that their plans are committed together; and the one place a write's base is
made from a read (:func:`base_from`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from api.codecs.roundfacts import NO_FACTS, RoundFacts
from api.plan.plan import Base, Write
from api.plan.planner import plan_append
from api.storage.states import stamped_scorecard
from api.storage.writescripts import AppendBase
from api.writes.recentwrites import LastWrite
from roads import RoadsError, Round, Scorecard
from roads.paytables import PayTable
from roads.shoe import Verdict, check_append

if TYPE_CHECKING:
    from api.writes.writer import Writer


class Item(NamedTuple):
    """A round to append in a batch, with its facts (a plain 4-tuple has none)."""

    table: str
    shoe: str
    number: int
    round: Round
    facts: RoundFacts = NO_FACTS


def first_plans(
    writer: Writer, items: Sequence[Item], outcomes: list[Any]
) -> list[tuple[int, Write]]:
    """The plan of each table's first round that plainly comes next: from this process's
    last write, or from a read whose cached state is current (else ``Writer.append`` reads
    again and answers: a repeat, a conflict, a rebuild). A rules error is that round's
    outcome."""
    seen: set[str] = set()
    bases: list[tuple[int, Base]] = []
    unknown: list[int] = []
    guesses: dict[int, LastWrite] = {}
    for index, (table, shoe, number, _, _) in enumerate(items):
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
        _, shoe, number, _, _ = items[index]
        if check_append(read.head(shoe), number) is not Verdict.NEXT:
            continue
        scorecard = stamped_scorecard(read.state, read.version)
        if scorecard is not None:
            own = writer.tables.paytables.own
            bases.append((index, base_from(read, shoe, scorecard, own)))
    plans = []
    figures = writer.figures()
    for index, base in bases:
        try:
            table, shoe, number, round, facts = items[index]
            plan = plan_append(
                table,
                shoe,
                number,
                round,
                base,
                watch=writer.watch,
                figures=figures,
                facts=facts,
            )
            plans.append((index, plan))
        except RoadsError as error:
            outcomes[index] = error
            if index in guesses:  # the plan left its scorecard unchanged: still good
                writer.recent.keep(items[index][0], guesses[index])
    return plans


def base_from(
    read: AppendBase, shoe: str, scorecard: Scorecard, own: Callable[[str], PayTable | None]
) -> Base:
    """What an append to ``shoe`` is computed from, given what was ``read`` and the shoe's
    scorecard at the read's version (the one place a write's base is made from a read), under
    the pay table its round is priced under (a new shoe's first round: the one waiting for it),
    which ``own`` reads by name when it is the deployment's own
    (:meth:`api.storage.paytablestore.PayTableStore.own`)."""
    variant = read.priced_under(shoe)
    burned = read.burned_before(shoe)
    return Base(read.head(shoe), read.version, variant, scorecard, burned, own(variant))
