"""Playing cards and the text form dealer systems send them in.

A card is written rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for 10),
suits ``S H D C``, case-insensitive (``"AS"``, ``"10d"``, ``"Th"``). Baccarat points are A = 1,
2..9 face value, 10/J/Q/K = 0. There are 52 distinct cards; :data:`CARDS` holds one instance of
each, indexed by :attr:`Card.index`, and :func:`parse_card` always returns those instances.
A round's cards leave the shoe Player, Banker, Player, Banker, then the Player's third card,
then the Banker's (:func:`dealt_order`; DOMAIN: deal order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from roads.errors import CardError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``rank`` 1 (Ace) to 13 (King) and ``suit`` one of ``S H D C``."""

    rank: int
    suit: str
    #: Baccarat value: A = 1, 2..9 face value, 10 and court cards 0.
    points: int = field(init=False, compare=False, repr=False)
    #: Position 0..51 in :data:`CARDS` (rank-major): a compact, stable id for storage.
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise CardError(f"no card has rank {self.rank!r} and suit {self.suit!r}")
        # Stored rather than computed: dealing and storage read them for every card.
        object.__setattr__(self, "points", self.rank if self.rank < 10 else 0)
        object.__setattr__(self, "index", (self.rank - 1) * 4 + SUITS.index(self.suit))

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)

_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS}
_BY_TEXT.update({"T" + suit: _BY_TEXT["10" + suit] for suit in SUITS})


def parse_card(text: str | Card) -> Card:
    """Read one card such as ``"AS"`` or ``"10d"``; a :class:`Card` is returned as it is.

    Raises :class:`CardError` naming the text when it is not a card.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like 'AS' or '10D', not {text!r}")
    card = _BY_TEXT.get(text.strip().upper())
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write rank (A 2-10 J Q K, or T for 10) then suit (S H D C)"
        )
    return card


def parse_cards(texts: object, hand: str) -> tuple[Card, ...]:
    """Read a hand's cards; ``hand`` ("Player"/"Banker") names the hand in error messages."""
    if isinstance(texts, str) or not isinstance(texts, list | tuple):
        raise CardError(f"{hand} cards must be a list of cards, not {texts!r}")
    return tuple(parse_card(text) for text in texts)


T = TypeVar("T", Card, int)


def dealt_order(player: Sequence[T], banker: Sequence[T]) -> list[T]:
    """One round's cards (or their indices) as they came out of the shoe."""
    order = [player[0], banker[0], player[1], banker[1]]
    order.extend(player[2:])
    order.extend(banker[2:])
    return order
