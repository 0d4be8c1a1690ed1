"""The cards of a shoe in the order they left it, round after round, each round's in the order
of :func:`roads.cards.dealt_order`."""

from __future__ import annotations

from collections.abc import Iterable

from roads.cards import dealt_order
from roads.round import Round


def dealt_cards(rounds: Iterable[Round], first: int = 1) -> tuple[list[int], list[int]]:
    """The card indices of ``rounds`` (numbered from ``first``) in dealt order, and the round
    number of each. Raises :class:`ValueError` for a round without cards: the order is then
    unknown from there on."""
    cards: list[int] = []
    numbers: list[int] = []
    for number, round in enumerate(rounds, first):
        if not round.player_cards:
            raise ValueError(f"round {number} has no cards")
        for card in dealt_order(round.player_cards, round.banker_cards):
            cards.append(card.index)
            numbers.append(number)
    return cards, numbers
