"""The integrity watch's part of a write's plan (:mod:`api.codecs.watchupdate`): what the write
tells the checks of :mod:`roads.integrity`, computed with the rest of the plan and committed
with it. ``None`` settings: the watch is off, and the part is empty."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from api.codecs.watchupdate import encode_append, encode_findings
from roads import Round, Scorecard
from roads.integrity.cutcard import cards_withdrawn
from roads.integrity.shoewatch import Finding, WatchSettings, watch_append
from roads.odds import fresh_odds


def append_part(
    table: str,
    shoe: str,
    number: int,
    round: Round,
    after: Scorecard,
    *,
    odds: dict[str, Any],
    variant: str,
    settings: WatchSettings | None,
    dealer: str | None = None,
    day: str | None = None,
    refused: tuple[str, ...] = (),
) -> str:
    """An append's part: its findings, anchors, tally (the dealer's too, when the round names
    one; under ``day``, the UTC day it was dealt, when known) and exposed side bets; and, for a
    shoe's first round that could not hold the cards reported burned before it (``refused``),
    that finding."""
    if settings is None:
        return ""
    fresh = fresh_odds(after.decks, variant)
    watch = watch_append(after, number, round, odds, fresh, settings)
    if refused:
        watch = replace(watch, findings=(*watch.findings, _burn_refused(number, refused)))
    return encode_append(table, shoe, number, watch, dealer, day)


def _burn_refused(number: int, cards: tuple[str, ...]) -> Finding:
    why = (
        "the cards reported burned before the shoe's first round and that round's own are more "
        "than the shoe holds: the round stands, the burned cards were dropped"
    )
    data = {"round": number, "check": "burn_refused", "cards": list(cards), "why": why}
    return Finding("impossible_cards", data)


def rewrite_part(
    table: str,
    shoe: str,
    number: int,
    old: Round,
    new: Round,
    *,
    settings: WatchSettings | None,
) -> str:
    """A correction's or a void's part: a round's cards withdrawn."""
    if settings is None:
        return ""
    found = cards_withdrawn(bool(old.player_cards), bool(new.player_cards) or new.void)
    if found is None:
        return ""
    finding = Finding("impossible_cards", {"round": number, **found})
    return encode_findings(table, shoe, number, [finding])
