"""Which cards of a shoe have been dealt, and the rule that no card appears more often than the
shoe's decks allow (in an 8-deck shoe, the 9th Ace of Spades is an error)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from operator import attrgetter

from roads.cards import Card
from roads.errors import ShoeError
from roads.shoe import DECK_CARDS, DEFAULT_DECKS

_INDEX = attrgetter("index")


class Composition:
    """Counts of each of the 52 cards dealt from a shoe of ``decks`` decks."""

    __slots__ = ("_dealt", "decks")

    def __init__(self, decks: int = DEFAULT_DECKS, dealt: bytes | None = None) -> None:
        if not 1 <= decks <= 255:
            raise ShoeError(f"a shoe has 1 to 255 decks, not {decks}")
        self.decks = decks
        self._dealt = bytearray(dealt) if dealt is not None else bytearray(DECK_CARDS)

    def deal(self, cards: Iterable[Card]) -> None:
        """Record ``cards`` as dealt. Raises :class:`ShoeError` if that would deal a card more
        often than ``decks`` times; nothing is recorded then."""
        dealt, decks = self._dealt, self.decks
        done: list[Card] = []
        for card in cards:
            index = card.index
            if dealt[index] >= decks:
                error = ShoeError(
                    f"{card} would be dealt for the {_ordinal(dealt[index] + 1)} time, "
                    f"but a shoe of {decks} decks holds only {decks}"
                )
                for undo in done:
                    dealt[undo.index] -= 1
                raise error
            dealt[index] += 1
            done.append(card)

    def deal_all(self, cards: list[Card]) -> None:
        """:meth:`deal` for a whole shoe's cards at once (faster; the same check and error)."""
        dealt = bytearray(self._dealt)
        for index, count in Counter(map(_INDEX, cards)).items():
            if dealt[index] + count > self.decks:
                self.copy().deal(cards)  # raises, naming the first card dealt one time too many
            dealt[index] += count
        self._dealt = dealt

    def dealt(self, card: Card) -> int:
        """How many copies of ``card`` have been dealt."""
        return self._dealt[card.index]

    def left(self, card: Card) -> int:
        """How many copies of ``card`` are still in the shoe (a burned card counts as still in
        unless it was dealt here)."""
        return self.decks - self._dealt[card.index]

    def cards_left(self) -> int:
        """How many cards are still in the shoe."""
        return DECK_CARDS * self.decks - sum(self._dealt)

    def left_each(self) -> tuple[int, ...]:
        """How many of each of the 52 cards are still in, in :data:`~roads.cards.CARDS` order."""
        return tuple(map(self.decks.__sub__, self._dealt))  # decks - dealt, without a Python step

    def to_bytes(self) -> bytes:
        """The 52 dealt counts, in :data:`~roads.cards.CARDS` order."""
        return bytes(self._dealt)

    def copy(self) -> Composition:
        return Composition(self.decks, self._dealt)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Composition):
            return NotImplemented
        return self.decks == other.decks and self._dealt == other._dealt

    def __repr__(self) -> str:
        dealt = sum(self._dealt)
        return f"Composition(decks={self.decks}, dealt={dealt}, left={self.cards_left()})"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
