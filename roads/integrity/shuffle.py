"""Was the shoe shuffled? A sequential test of the dealt cards against a fair shuffle.

**The statistic.** Decks leave the maker in suit order: each card lies beside a *neighbour*, a
card of the same suit one rank up or down (here King and Ace are neighbours too, so every card
has exactly two). Decks dealt in that order put a neighbour next to every card; one riffle keeps
each half in order, so neighbours come two cards apart; a few careless riffles, a few apart. A
card *hits* window ``d`` when it is a neighbour of one of the ``d`` cards seen just before it.

**Its exact chance.** Under a fair shuffle the next card seen is equally likely to be any card
not seen yet (burned cards included: nobody saw them), so the chance that it hits is exactly
``q`` = the copies left of the neighbours of those ``d`` cards, over the cards left. For each
window ``d`` of :data:`WINDOWS` and each hit rate ``a`` of :data:`RATES` an unshuffled shoe might
have, the likelihood ratio ``prod(a / q if hit else (1 - a) / (1 - q))`` has mean 1 under a
fair shuffle at every card; so does the average ``M`` of those ratios. By Ville's inequality a
fair shuffle makes ``M`` reach ``1 / alpha`` at *any* card of the shoe with a chance of at most
``alpha``. :attr:`ShuffleTest.chance`, ``1 / max M`` so far, is therefore an upper bound on the
chance that a fair shuffle shows evidence this strong, valid however often it is looked at (after
every round), and :data:`ALARM` (1e-6) bounds the false alarms per fair shoe.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from roads.shoe import DECK_CARDS, DEFAULT_DECKS

#: How far back (in cards) a neighbour counts: 1 catches maker's order, 2 one perfect riffle,
#: 3 a riffle whose packets hold one to three cards.
WINDOWS: tuple[int, ...] = (1, 2, 3)
#: The hit rates an unshuffled shoe is tested for (a mixture: no one rate has to be guessed).
RATES: tuple[float, ...] = (0.3, 0.6, 0.9)
#: A shoe is called unshuffled when a fair shuffle's chance of such evidence is below this.
ALARM = 1e-6
_PAIRS = len(WINDOWS) * len(RATES)
_LOG_PAIRS = math.log(_PAIRS)
_HIT = tuple(math.log(a) for a in RATES)
_MISS = tuple(math.log(1 - a) for a in RATES)


def _neighbours(index: int) -> tuple[int, int]:
    rank, suit = divmod(index, 4)
    return (rank - 1) % 13 * 4 + suit, (rank + 1) % 13 * 4 + suit


#: Each card's two neighbours, by card index (:attr:`roads.cards.Card.index`).
NEIGHBOURS: tuple[tuple[int, int], ...] = tuple(_neighbours(index) for index in range(52))


@dataclass(frozen=True, slots=True)
class ShuffleTest:
    """Where the test stands: ``cards`` seen, each window's ``hits``, and ``log_evidence``,
    ``log(max M)`` so far (0 before any evidence)."""

    cards: int
    hits: tuple[int, ...]
    log_evidence: float

    @property
    def chance(self) -> float:
        """An upper bound on the chance that a fair shuffle shows evidence this strong."""
        return min(1.0, math.exp(-self.log_evidence))

    @property
    def unshuffled(self) -> bool:
        return self.chance < ALARM

    def as_dict(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "hits": dict(zip((f"within_{d}" for d in WINDOWS), self.hits, strict=True)),
            "chance": self.chance,
            "unshuffled": self.unshuffled,
        }


class ShuffleWatch:
    """The test, fed the shoe's cards from its start (:meth:`see`); the evidence is taken at
    each :meth:`checkpoint` (the end of each round: Ville's bound holds at any of them)."""

    __slots__ = ("_best", "_hits", "_left", "_logs", "_recent", "_total", "cards")

    def __init__(self, decks: int = DEFAULT_DECKS) -> None:
        self._left = [decks] * 52
        self._total = DECK_CARDS * decks
        self._recent: list[int] = []  # the last max(WINDOWS) cards, newest first
        self._logs = [0.0] * _PAIRS  # log of each (window, rate) ratio
        self._hits = [0] * len(WINDOWS)
        self._best = 0.0
        self.cards = 0

    def see(self, cards: Iterable[int]) -> ShuffleWatch:
        """The next cards out of the shoe (their indices); the shoe must still hold each."""
        left, recent, logs, hits = self._left, self._recent, self._logs, self._hits
        for card in cards:
            if left[card] <= 0:
                raise ValueError(f"card {card} has no copy left in the shoe")
            if recent:
                near: set[int] = set()
                at = 0
                for window, d in enumerate(WINDOWS):
                    if d <= len(recent):
                        near.update(NEIGHBOURS[recent[d - 1]])
                    q = sum([left[i] for i in near]) / self._total
                    if card in near:
                        hits[window] += 1
                        gain = -math.log(q)
                        for log_a in _HIT:
                            logs[at] += log_a + gain
                            at += 1
                    else:
                        gain = -math.log1p(-q)
                        for log_miss in _MISS:
                            logs[at] += log_miss + gain
                            at += 1
            left[card] -= 1
            self._total -= 1
            recent.insert(0, card)
            del recent[WINDOWS[-1] :]
            self.cards += 1
        return self

    def checkpoint(self) -> ShuffleTest:
        """Take the evidence now (at a round's end) and return the test as it stands."""
        logs = self._logs
        top = max(logs)
        mixture = top + math.log(sum(math.exp(x - top) for x in logs)) - _LOG_PAIRS
        self._best = max(self._best, mixture)
        return ShuffleTest(self.cards, tuple(self._hits), self._best)


def rounds_test(rounds: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS) -> ShuffleTest:
    """The test over a shoe's rounds, each the indices of its cards in dealt order, with the
    evidence taken at the end of each round."""
    watch = ShuffleWatch(decks)
    test = watch.checkpoint()
    for cards in rounds:
        test = watch.see(cards).checkpoint()
    return test


def alarm_round(rounds: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS) -> int | None:
    """The first round (1-based; each the indices of its cards in dealt order) at whose end the
    test calls the shoe unshuffled, or ``None``."""
    watch = ShuffleWatch(decks)
    for number, cards in enumerate(rounds, start=1):
        if watch.see(cards).checkpoint().unshuffled:
            return number
    return None


def shuffle_test(cards: Iterable[int], decks: int = DEFAULT_DECKS) -> ShuffleTest:
    """The test over a sequence of dealt cards (indices) from the shoe's start, the evidence
    taken once at its end."""
    return ShuffleWatch(decks).see(cards).checkpoint()
