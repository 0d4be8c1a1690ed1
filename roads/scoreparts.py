"""What a scorecard is made of, and making it at once: a shoe's parts (its rounds, the cards
dealt, the statistics, the Big Road, the derived roads) empty, for a shoe with no round yet, or
built from a whole shoe's rounds, each part in one pass.

Building at once equals adding the rounds one by one, which :meth:`roads.scorecard.Scorecard.add`
does (the tests hold the two equal); it refuses what adding them would refuse, with the same
errors. :mod:`roads.snapshot` writes the parts as bytes and reads them back.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, repeat
from operator import attrgetter
from typing import NamedTuple

from roads.bigroad import BigRoad
from roads.composition import Composition
from roads.derived import DERIVED_ROADS, DerivedRoad
from roads.errors import RoundError, ShoeError
from roads.grid import TAILS, Tail
from roads.round import RESULTS, Round
from roads.roundlog import RoundLog
from roads.shoe import MAX_ROUNDS
from roads.stats import ShoeStats

_BARE: dict[str, Round] = {result: Round(result) for result in RESULTS}
_HANDS = attrgetter("player_cards", "banker_cards")


class Parts(NamedTuple):
    """What a scorecard's state is made of."""

    tail: Tail
    decks: int
    log: RoundLog
    composition: Composition
    stats: ShoeStats
    big_road: BigRoad
    derived: tuple[DerivedRoad, ...]

    def copy(self) -> Parts:
        """Parts that share nothing mutable with these."""
        return Parts(
            self.tail,
            self.decks,
            self.log.copy(),
            self.composition.copy(),
            self.stats.copy(),
            self.big_road.copy(),
            tuple(road.copy() for road in self.derived),
        )


def as_round(value: Round | str) -> Round:
    """A :class:`Round`, or a bare result letter ``"B"``, ``"P"`` or ``"T"``, as a round."""
    if isinstance(value, Round):
        return value
    bare = _BARE.get(value) if isinstance(value, str) else None
    if bare is None:
        raise RoundError(f"a round must be a Round or one of 'B', 'P', 'T', not {value!r}")
    return bare


def empty(tail: Tail, decks: int) -> Parts:
    """The parts of a shoe of ``decks`` decks with no round yet, every grid with the dragon-tail
    convention ``tail``. Raises :class:`ValueError` for a ``tail`` other than ``"stay"`` or
    ``"drop"``, :class:`~roads.errors.ShoeError` for a number of decks no shoe has."""
    composition, big_road, derived = _unplayed(tail, decks)
    return Parts(tail, decks, RoundLog(), composition, ShoeStats(), big_road, derived)


def built(values: Iterable[Round | str], tail: Tail, decks: int) -> tuple[Parts, list[int]]:
    """The parts of a whole shoe of rounds (or bare result letters), and the indexes of its
    played (not void) rounds, which entered the roads. Raises :class:`ShoeError` for more than
    :data:`~roads.shoe.MAX_ROUNDS` rounds or a card dealt more often than the shoe holds it."""
    composition, big_road, derived = _unplayed(tail, decks)
    rounds = list(values)
    if not all(map(isinstance, rounds, repeat(Round))):
        rounds = [as_round(value) for value in rounds]
    if len(rounds) > MAX_ROUNDS:
        raise ShoeError(f"a shoe has at most {MAX_ROUNDS} rounds")
    composition.deal_all(list(chain.from_iterable(chain.from_iterable(map(_HANDS, rounds)))))
    log = RoundLog(rounds)
    bead = [index for index, round in enumerate(rounds) if not round.void]
    stats = ShoeStats.of(rounds)
    big_road.build(bead, "".join([rounds[index].result for index in bead]))
    lengths = big_road.columns.lengths
    for road in derived:
        road.build(lengths)
    return Parts(tail, decks, log, composition, stats, big_road, derived), bead


def _unplayed(tail: Tail, decks: int) -> tuple[Composition, BigRoad, tuple[DerivedRoad, ...]]:
    """The cards and the roads of a shoe before its first round (see :func:`empty`)."""
    if tail not in TAILS:
        raise ValueError(f"tail must be 'stay' or 'drop', not {tail!r}")
    composition = Composition(decks)  # refuses a number of decks no shoe has
    derived = tuple(DerivedRoad(name, k, tail) for name, k in DERIVED_ROADS)
    return composition, BigRoad(tail), derived
