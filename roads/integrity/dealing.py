"""The cards of a shoe in the order they left it: a round deals Player, Banker, Player, Banker,
then the Player's third card, then the Banker's (DOMAIN: deal order)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from roads.cards import Card
from roads.round import Round

T = TypeVar("T", Card, int)


def dealt_order(player: Sequence[T], banker: Sequence[T]) -> list[T]:
    """One round's cards (or their indices) as they came out of the shoe."""
    order = [player[0], banker[0], player[1], banker[1]]
    order.extend(player[2:])
    order.extend(banker[2:])
    return order


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
