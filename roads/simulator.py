"""A seeded shoe simulator: shuffle, burn, deal rounds by the rules until the cut card.

- The shoe is ``decks`` standard 52-card decks, shuffled with :class:`random.Random` (``seed``).
- Burn (``burn=True``): the first card is shown and as many cards as its value are burned, court
  cards and tens counting 10 (the usual house rule; the seeds do not give one). The burned cards
  are unknown to anyone watching the results.
- The cut card sits ``cut_card`` cards from the end (about 14 by default; seed 004 places it about
  6.5 decks into 8). The round in progress when it comes out is the last of the shoe (seed 003):
  rounds are dealt while no more than the cards in front of the cut card have been used.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from roads.cards import CARDS, Card
from roads.round import Round
from roads.rules import deal_hands
from roads.shoe import DEFAULT_CUT_CARD, DEFAULT_DECKS

MIN_CUT_CARD = 6  # a round takes at most 6 cards, so at least 6 must lie behind the cut card


def shuffled_shoe(rng: random.Random, decks: int = DEFAULT_DECKS) -> list[Card]:
    """``decks`` decks in random order."""
    shoe = list(CARDS) * decks
    rng.shuffle(shoe)
    return shoe


def deal_shoe(
    seed: int | None = None,
    *,
    decks: int = DEFAULT_DECKS,
    cut_card: int = DEFAULT_CUT_CARD,
    burn: bool = True,
) -> list[Round]:
    """Every round of one simulated shoe, validated like a reported round."""
    return list(iter_shoe(seed, decks=decks, cut_card=cut_card, burn=burn))


def iter_shoe(
    seed: int | None = None,
    *,
    decks: int = DEFAULT_DECKS,
    cut_card: int = DEFAULT_CUT_CARD,
    burn: bool = True,
) -> Iterator[Round]:
    """The rounds of one simulated shoe, one at a time (for feeding a live demo)."""
    if not 1 <= decks <= 255:
        raise ValueError(f"decks must be 1 to 255, not {decks}")
    return deal_rounds(shuffled_shoe(random.Random(seed), decks), cut_card=cut_card, burn=burn)


def deal_rounds(
    shoe: Sequence[Card], *, cut_card: int = DEFAULT_CUT_CARD, burn: bool = True
) -> Iterator[Round]:
    """Deal the rounds of a shoe whose cards lie in this order (burn and cut card: see the
    module docstring)."""
    if not MIN_CUT_CARD <= cut_card <= len(shoe) - 20:
        raise ValueError(f"cut_card must be {MIN_CUT_CARD} to {len(shoe) - 20}, not {cut_card}")
    position = 1 + (shoe[0].points or 10) if burn else 0
    last_start = len(shoe) - cut_card

    def draw() -> Card:
        nonlocal position
        card = shoe[position]
        position += 1
        return card

    while position <= last_start:
        player, banker = deal_hands(draw)
        yield Round.from_cards(player, banker)


def iter_shoes(
    count: int, seed: int | None = None, *, decks: int = DEFAULT_DECKS
) -> Iterator[list[Round]]:
    """``count`` shoes from one seed (each shoe gets its own derived seed)."""
    rng = random.Random(seed)
    for _ in range(count):
        yield deal_shoe(rng.getrandbits(64), decks=decks)
