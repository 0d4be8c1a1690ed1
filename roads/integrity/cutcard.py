"""Rounds no 8-deck shoe with a cut card can deal, and cards withdrawn from a round.

Seed 002 (2.3.3 e) puts the cut card one deck before the back of the shoe and seed 004 about 6.5
decks in; many baccarat tables leave only about 14 cards behind it (the simulator's default), so
that is the default bound and ``ROADS_CUT_CARD_BEHIND`` states a house's own. The hand in
progress when it comes out is the last of the shoe (seed 003). So a shoe of ``decks`` decks
with ``behind`` cards behind the cut card starts no round once more than ``52 * decks -
behind`` cards have left it: such a round, or a shoe closed with that many cards dealt, is
impossible. The cards a round used are known
when it came with its cards; a round reported without them used at least 4.
"""

from __future__ import annotations

from typing import Any

from roads.shoe import DECK_CARDS, DEFAULT_CUT_CARD, DEFAULT_DECKS

#: Cards behind the cut card at the least (the shoe's default, the simulator's too; seed 002's
#: house: 52).
DEFAULT_BEHIND = DEFAULT_CUT_CARD


def last_start(decks: int = DEFAULT_DECKS, behind: int = DEFAULT_BEHIND) -> int:
    """The most cards that can have left the shoe when a round starts."""
    return DECK_CARDS * decks - behind


def past_cut_card(
    used_before: int, used_before_previous: int | None, *, decks: int, behind: int
) -> dict[str, Any] | None:
    """The finding when a round that started with ``used_before`` cards gone is the first one
    past the cut card's last hand (``used_before_previous``: its previous round's, ``None`` for
    the shoe's first round); else ``None``."""
    limit = last_start(decks, behind)
    if used_before <= limit:
        return None
    if used_before_previous is not None and used_before_previous > limit:
        return None  # the round before was already past: one finding per shoe
    return {
        "check": "past_cut_card",
        "cards_used": used_before,
        "limit": limit,
        "why": (
            f"{used_before} cards had left the shoe before this round; with the cut card at "
            f"least {behind} cards from the back of {decks} decks, the last hand starts by "
            f"card {limit}"
        ),
    }


def cards_withdrawn(had_cards: bool, has_cards: bool) -> dict[str, Any] | None:
    """The finding when a correction replaces a round reported with its cards by a result
    alone: the cards dealt are no longer on record (a round whose cards broke the drawing
    rules, reported as a result instead)."""
    if had_cards and not has_cards:
        return {
            "check": "cards_withdrawn",
            "why": "a round reported with its cards was corrected to a result without cards",
        }
    return None
