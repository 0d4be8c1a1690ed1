"""Cards the studio reports burned by their faces (:mod:`api.codecs.studioevents`): they leave
the shoe, so the cards left and the exact odds, as dealt cards do.

- **After a round** of the shoe: kept in the record of the shoe's last round (``burned``,
  :mod:`api.codecs.roundfacts`), a ``burn`` write of the shoe's (a new version, in its chain).
- **Before its first round** (the burn after a shuffle): kept in the table's meta
  (``burn_pending``) until that round takes them into its own record, in its own write
  (:func:`api.plan.planner.plan_append`); a burn reported again before it adds to them. One
  shoe's cards wait at a time: a burn before another shoe's first round is a 409 naming the
  shoe waited for, and the first round of another shoe drops them (the shoe they were for did
  not start). A first round that cannot hold them and its own cards too stands without them
  (the watch names them: ``burn_refused``).

**A report id is the retry key.** It is kept with the cards (``burn_ids``, in the same record or
the same meta text, so in the same compare-and-set write): a burn sent again under an id the
shoe holds changes nothing and answers ``changed`` false. Either way a card the shoe cannot hold
that often is a rules error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from api.codecs.records import burned_in, round_of
from api.codecs.roundfacts import BurnedBefore, burned_before, burned_before_shoe, in_record
from api.plan.planner import plan_rewrite
from api.storage.failures import NotFound
from api.writes.refusals import Conflict
from api.writes.retry import retried
from api.writes.writer import Writer, Written
from roads import Scorecard
from roads.cards import parse_card


def burn(
    writer: Writer,
    table: str,
    shoe: str,
    cards: Sequence[str],
    by: str = "",
    report_id: str | None = None,
) -> Written:
    """Take ``cards`` out of the shoe (see the module doc); ``by``: the name of the key that
    reported them; ``report_id``: the report's retry key. A burn before the shoe's first round
    answers an empty record (the round will hold the cards) at version 0."""
    burning = tuple(str(parse_card(card)) for card in cards)  # as the rounds' cards are kept
    ids = (report_id,) if report_id else ()

    def attempt() -> Written | None:
        version, stored, _ = writer.store.records(table, shoe)
        if not stored:
            return _before_first_round(writer, table, shoe, BurnedBefore(burning, ids))
        if report_id and any(report_id in in_record(record).burn_ids for record in stored):
            writer.store.committed_again(table)
            return Written(False, stored[-1], version or 0)
        number, rounds = len(stored), [round_of(record) for record in stored]
        plan = plan_rewrite(
            "burn",
            table,
            shoe,
            number,
            rounds,
            rounds[-1],
            version=version or 0,
            variant=writer.priced(table, shoe, stored),
            watch=writer.watch,
            figures=writer.figures(),
            facts=in_record(stored[-1]).burning(burning, ids),
            burned=burned_in(stored),
            burning=burning,
        )
        (reply,) = writer.store.commit([plan], by)
        return writer.settled(plan, reply)

    return retried(shoe, attempt)


def _before_first_round(
    writer: Writer, table: str, shoe: str, burning: BurnedBefore
) -> Written | None:
    """Keep ``burning`` for the shoe's first round, with any kept before (``None``: the shoe
    got a round, or the kept cards changed, meanwhile: read again)."""
    kept = writer.store.kept_burned_before(table)
    waiting = burned_before_shoe(kept)
    if waiting is not None and waiting != shoe:
        raise Conflict(
            f"cards burned before shoe {waiting}'s first round are waiting for it: report shoe "
            f"{shoe}'s once {waiting} has started (another shoe's first round drops them)"
        )
    before = burned_before(kept, shoe)
    if set(burning.ids) & set(before.ids):
        return Written(False, {}, 0)  # kept already: a retry
    cards = (*before.cards, *burning.cards)
    Scorecard().burn(cards)  # a rules error when a new shoe cannot hold them
    together = BurnedBefore(cards, (*before.ids, *burning.ids))
    kept_now = writer.store.keep_burned_before(table, shoe, kept, together)
    if kept_now is None:
        raise NotFound(f"no table {table}")
    return Written(True, {}, 0) if kept_now else None
