"""The integrity watch's part of a write's plan (:mod:`api.codecs.watchupdate`): what the write
tells the checks of :mod:`roads.integrity`, computed with the rest of the plan and committed
with it. ``None`` settings: the watch is off, and the part is empty."""

from __future__ import annotations

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
) -> str:
    """An append's part: its findings, anchors, tally (the dealer's too, when the round names
    one) and exposed side bets."""
    if settings is None:
        return ""
    fresh = fresh_odds(after.decks, variant)
    watch = watch_append(after, number, round, odds, fresh, settings)
    return encode_append(table, shoe, number, watch, dealer)


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
