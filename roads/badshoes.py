"""Shoes the integrity watch must catch, made for its tests and benchmark: decks in maker's
order, decks each given one perfect riffle, a whole shoe given one random riffle or a few.

Maker's order here is the common new-deck order: Spades and Diamonds Ace to King, Clubs and
Hearts King to Ace (the watch tries each way each suit may run).
"""

from __future__ import annotations

import random

from roads.cards import CARDS, Card
from roads.shoe import DEFAULT_DECKS


def _suit(suit: str, ascending: bool) -> list[Card]:
    cards = [card for card in CARDS if card.suit == suit]
    cards.sort(key=lambda card: card.rank, reverse=not ascending)
    return cards


#: One deck as it leaves the maker.
NEW_DECK: tuple[Card, ...] = tuple(
    _suit("S", True) + _suit("D", True) + _suit("C", False) + _suit("H", False)
)


def perfect_riffle(cards: list[Card]) -> list[Card]:
    """Cut exactly in half and interleave one by one (an out-faro: the top card stays on top)."""
    half = (len(cards) + 1) // 2
    top, bottom = cards[:half], cards[half:]
    mixed: list[Card] = []
    for at, card in enumerate(top):
        mixed.append(card)
        if at < len(bottom):
            mixed.append(bottom[at])
    return mixed


def random_riffle(cards: list[Card], rng: random.Random) -> list[Card]:
    """One riffle as people do it (Gilbert-Shannon-Reeds): a binomial cut, then each card drops
    from a half with a chance proportional to the cards left in it."""
    cut = sum(rng.random() < 0.5 for _ in cards)
    left, right = cards[:cut], cards[cut:]
    mixed: list[Card] = []
    while left or right:
        if rng.random() < len(left) / (len(left) + len(right)):
            mixed.append(left.pop(0))
        else:
            mixed.append(right.pop(0))
    return mixed


def maker_order(decks: int = DEFAULT_DECKS) -> list[Card]:
    """``decks`` decks straight from the maker, one after another."""
    return list(NEW_DECK) * decks


def riffled_once(decks: int = DEFAULT_DECKS) -> list[Card]:
    """``decks`` new decks, each given one perfect riffle, one after another."""
    return perfect_riffle(list(NEW_DECK)) * decks


def shoe_riffled_once(rng: random.Random, decks: int = DEFAULT_DECKS) -> list[Card]:
    """``decks`` new decks stacked, and the whole shoe given one random riffle."""
    return random_riffle(maker_order(decks), rng)


def riffled(rng: random.Random, riffles: int, decks: int = DEFAULT_DECKS) -> list[Card]:
    """``decks`` new decks stacked and given ``riffles`` random riffles: a lazy shuffle."""
    shoe = maker_order(decks)
    for _ in range(riffles):
        shoe = random_riffle(shoe, rng)
    return shoe
