"""The drawing rules of punto banco baccarat (DOMAIN.md, "Cards and hands").

- A hand's total is the sum of its points modulo 10.
- A natural is a two-card total of 8 or 9 on either side: both hands stand.
- Otherwise the Player draws a third card on 0-5 and stands on 6-7.
- If the Player stood, the Banker draws on 0-5 and stands on 6-7.
- If the Player drew a third card worth ``v``, the Banker (two-card total ``b``) draws when:
  b 0-2 always; b 3 unless v is 8; b 4 when v is 2-7; b 5 when v is 4-7; b 6 when v is 6-7;
  b 7 never.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from roads.cards import Card

# For each Banker two-card total 0..7, the Player third-card values on which the Banker draws.
BANKER_DRAWS_ON: tuple[frozenset[int], ...] = (
    frozenset(range(10)),
    frozenset(range(10)),
    frozenset(range(10)),
    frozenset(range(10)) - {8},
    frozenset(range(2, 8)),
    frozenset(range(4, 8)),
    frozenset({6, 7}),
    frozenset(),
)


def hand_total(cards: Iterable[Card]) -> int:
    """The baccarat total of a hand: the sum of its points modulo 10."""
    return sum(card.points for card in cards) % 10


def is_natural(two_card_total: int) -> bool:
    """A two-card total of 8 or 9 is a natural: neither hand draws."""
    return two_card_total >= 8


def player_draws(two_card_total: int) -> bool:
    """The Player draws a third card on 0-5 and stands on 6-7 (naturals are checked first)."""
    return two_card_total <= 5


def banker_draws(two_card_total: int, player_third: int | None) -> bool:
    """Whether the Banker draws, given its two-card total and the Player's third card's points.

    ``player_third`` is ``None`` when the Player stood; the Banker then draws on 0-5 like the
    Player. Otherwise the third-card table in the module docstring applies. Naturals are checked
    before this is asked.
    """
    if player_third is None:
        return two_card_total <= 5
    if two_card_total >= 8:
        return False
    return player_third in BANKER_DRAWS_ON[two_card_total]


def deal_hands(draw: Callable[[], Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Deal one round by the rules, taking cards from ``draw`` in deal order P, B, P, B, ...

    Returns the Player's and the Banker's cards.
    """
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player_total = (p1.points + p2.points) % 10
    banker_total = (b1.points + b2.points) % 10
    if player_total >= 8 or banker_total >= 8:
        return (p1, p2), (b1, b2)
    if player_draws(player_total):
        p3 = draw()
        player = (p1, p2, p3)
        if banker_draws(banker_total, p3.points):
            return player, (b1, b2, draw())
        return player, (b1, b2)
    if banker_draws(banker_total, None):
        return (p1, p2), (b1, b2, draw())
    return (p1, p2), (b1, b2)
