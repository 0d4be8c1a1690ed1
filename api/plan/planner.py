"""Turning a write into its plan (:class:`~api.plan.plan.Write`): the one place a write's meaning
is computed, for a single report, a batch and a correction alike.

A write's events come from :data:`EVENT_SOURCES`, each a function of the :class:`Change`: a
consumer that wants its own events committed with every write adds one function there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from api.codecs.jsontext import dumps_text
from api.codecs.records import record_of
from api.codecs.roundfacts import NO_FACTS, RoundFacts, burned_before_text
from api.plan.lobbyplan import lobby_update
from api.plan.plan import Base, Kind, Write
from api.plan.roadevents import TableEvent, append_events, rewrite_event
from api.plan.watch import append_part, rewrite_part
from roads import Round, Scorecard
from roads.delta import Tails
from roads.errors import ShoeError
from roads.integrity.shoewatch import WatchSettings
from roads.odds import pay_table_of, shoe_odds
from roads.paytables import PayTable
from roads.rarity import LobbyFigures
from roads.shoe import ShoeHead


@dataclass(frozen=True, slots=True)
class Change:
    """What a write does to a shoe: round ``number`` becomes ``round`` (``kind``: appended,
    corrected or voided), taking the shoe from version ``version - 1`` to ``version`` and its
    scorecard to ``after``. ``tails``: the roads' tails before an append (``None`` when it
    opens the shoe); ``before``: the whole scorecard before a correction or a void."""

    kind: Kind
    table: str
    shoe: str
    number: int
    round: Round
    version: int
    after: Scorecard
    tails: Tails | None = None
    before: Scorecard | None = None
    odds: dict[str, Any] | None = None  # the shoe's after the write (roads.odds.shoe_odds)
    facts: RoundFacts = NO_FACTS  # the round's own (api.codecs.roundfacts)


def road_events(change: Change) -> list[TableEvent]:
    """The events that change the table's roads document, each with its road patch."""
    c = change
    if c.kind == "round":
        args = (c.table, c.shoe, c.version, c.number, c.round, c.tails, c.after, c.odds)
        return append_events(*args, facts=c.facts)
    assert c.before is not None
    args = (c.table, c.shoe, c.version, c.number, c.round, c.before, c.after, c.odds)
    return [rewrite_event(c.kind, *args, facts=c.facts)]


EventSource = Callable[[Change], Iterable[TableEvent]]
#: Every source of a write's events, in the order its events are emitted.
EVENT_SOURCES: tuple[EventSource, ...] = (road_events,)


def events_of(change: Change) -> tuple[TableEvent, ...]:
    return tuple(event for source in EVENT_SOURCES for event in source(change))


def plan_append(
    table: str,
    shoe: str,
    number: int,
    round: Round,
    base: Base,
    *,
    watch: WatchSettings | None = None,
    figures: LobbyFigures | None = None,
    facts: RoundFacts = NO_FACTS,
) -> Write:
    """Append round ``number`` to the shoe as ``base`` has it. ``base``'s scorecard gets the
    round (in place); a round the shoe cannot hold raises a rules error, and the scorecard is
    then unchanged. ``watch``: the integrity watch's settings (``None``: off); ``figures``:
    what the tile states beside each current run (``None``: nothing); ``facts``: the round's
    own (its record and events carry them). Cards burned before the shoe's first round
    (``base.burned``) leave the shoe with it and are kept in its record; when the shoe cannot
    hold them and the round too, the round wins (the dealer's cards are the truth): they are
    dropped, and the watch names them (``impossible_cards``, ``burn_refused``)."""
    scorecard = base.scorecard
    facts = facts.priced_under(base.variant)
    tails = Tails.of(scorecard) if base.head.count else None
    scorecard.add(round)
    refused: tuple[str, ...] = ()
    if base.burned.cards:
        try:
            scorecard.burn(base.burned.cards)
            facts = facts.burning(base.burned.cards, base.burned.ids)
        except ShoeError:  # nothing burned: the scorecard holds the round alone
            refused = base.burned.cards
    odds = shoe_odds(scorecard, base.priced)
    args = ("round", table, shoe, number, round, base.version + 1, scorecard)
    change = Change(*args, tails=tails, odds=odds, facts=facts)
    streaks = tails.small.streaks_dict() if tails else None
    plan = _plan(change, base.head, base.priced, streaks, watch, figures=figures, refused=refused)
    if not base.burned.cards:
        return plan
    return replace(plan, burned_before=burned_before_text(shoe, base.burned))


def plan_rewrite(
    kind: Kind,
    table: str,
    shoe: str,
    number: int,
    rounds: list[Round],
    new: Round,
    *,
    version: int,
    variant: str | PayTable,
    watch: WatchSettings | None = None,
    figures: LobbyFigures | None = None,
    facts: RoundFacts = NO_FACTS,
    burned: Sequence[str] = (),
    burning: Sequence[str] = (),
) -> Write:
    """Correct (``kind`` ``correction``) or void round ``number`` of a shoe whose rounds are
    ``rounds`` at ``version``: it becomes ``new``, with ``facts``; or (``burn``) keep it, and
    take ``burning`` out of the shoe, burned after it. ``burned``: the cards burned in the shoe
    before the write (out of the cards left before and after it). Raises
    :class:`~roads.errors.ShoeError` for cards the shoe does not hold that often."""
    before = Scorecard.from_rounds(rounds)
    after = Scorecard.from_rounds([*rounds[: number - 1], new, *rounds[number:]])
    if burned:
        before.burn(burned)
        after.burn(burned)
    if burning:
        after.burn(burning)
    odds = shoe_odds(after, variant)
    args = (kind, table, shoe, number, new, version + 1, after)
    change = Change(*args, before=before, odds=odds, facts=facts)
    part = rewrite_part(table, shoe, number, rounds[number - 1], new, settings=watch)
    return _plan(change, None, variant, None, None, part, figures=figures)


def _plan(
    change: Change,
    head: ShoeHead | None,
    variant: str | PayTable,
    streaks: dict[str, Any] | None,
    watch: WatchSettings | None,
    watch_part: str = "",
    *,
    figures: LobbyFigures | None = None,
    refused: tuple[str, ...] = (),
) -> Write:
    """The plan of ``change``; ``streaks``: the lobby roads' streaks before it (``None``: no run
    grew, as for a new shoe or a rewritten one). The shoe's odds, worked out once by the caller
    (``change.odds``), serve its events, its tile's edge and the integrity watch (``watch``, an
    append's; a rewrite's part comes made, ``watch_part``)."""
    events = events_of(change)
    if change.kind == "round":
        c = change
        watch_part = append_part(
            c.table,
            c.shoe,
            c.number,
            c.round,
            c.after,
            odds=c.odds,
            variant=variant,
            settings=watch,
            dealer=c.facts.dealer_id,
            day=c.facts.dealt_day,
            refused=refused,
        )
    scorecard = change.after
    return Write(
        kind=change.kind,
        table=change.table,
        shoe=change.shoe,
        number=change.number,
        base_version=change.version - 1,
        head=head,
        variant=pay_table_of(variant).name,
        record=record_of(change.number, change.round, change.version, change.facts),
        state=scorecard.to_bytes(),
        scorecard=scorecard,
        events=events,
        lobby=lobby_update(
            change.shoe,
            change.version,
            scorecard,
            variant=variant,
            odds=change.odds,
            before=streaks,
            events=events,
            watch=watch_part,
            figures=figures,
            dealer=dealer_of(change),
        ),
    )


def dealer_of(change: Change) -> str:
    """The dealer an append's round names, as the lobby update carries it (JSON; ``""`` for
    none, and for a rewrite: a corrected round's dealer is not the table's current one)."""
    dealer = change.facts.dealer
    return dumps_text(dealer) if change.kind == "round" and dealer is not None else ""
