"""Shoe statistics: how often each result and side event happened, kept as running counts.

Counts cover the rounds that entered the roads (void rounds are counted apart). Flags a round was
reported without (pairs, natural) count as false; Banker-wins-with-6 needs the Banker's total.
Percentages are of the rounds played, rounded to two decimals.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from roads.columns import Columns
from roads.round import Round

_PLAYER_PAIR = attrgetter("player_pair")
_BANKER_PAIR = attrgetter("banker_pair")
_NATURAL = attrgetter("natural")

DRAGON_LENGTH = 6  # a Big Road run of this length or more is a dragon

COUNTED: tuple[str, ...] = (
    "banker",
    "player",
    "tie",
    "player_pair",
    "banker_pair",
    "natural",
    "banker_six",
)


class ShoeStats:
    """Running counts of one shoe's rounds."""

    __slots__ = (
        "banker",
        "banker_pair",
        "banker_six",
        "natural",
        "player",
        "player_pair",
        "tie",
        "void",
    )

    def __init__(self) -> None:
        self.banker = self.player = self.tie = 0
        self.player_pair = self.banker_pair = self.natural = self.banker_six = 0
        self.void = 0

    def count(self, round: Round) -> None:
        """Count one played (non-void) round."""
        result = round.result
        if result == "B":
            self.banker += 1
            if round.banker_total == 6:
                self.banker_six += 1
        elif result == "P":
            self.player += 1
        else:
            self.tie += 1
        if round.player_pair:
            self.player_pair += 1
        if round.banker_pair:
            self.banker_pair += 1
        if round.natural:
            self.natural += 1

    @classmethod
    def of(cls, rounds: list[Round]) -> ShoeStats:
        """Counts of a whole list of rounds at once (the batch form of :meth:`count`)."""
        stats = cls()
        played = [r for r in rounds if not r.void]
        stats.void = len(rounds) - len(played)
        results = [r.result for r in played]
        stats.banker = results.count("B")
        stats.player = results.count("P")
        stats.tie = results.count("T")
        stats.player_pair = sum(map(_PLAYER_PAIR, played))
        stats.banker_pair = sum(map(_BANKER_PAIR, played))
        stats.natural = sum(map(_NATURAL, played))
        stats.banker_six = [r.banker_total for r in played if r.result == "B"].count(6)
        return stats

    @property
    def played(self) -> int:
        """Rounds that entered the roads."""
        return self.banker + self.player + self.tie

    def counters(self) -> tuple[int, ...]:
        """The raw counts, in :data:`COUNTED` order followed by ``void`` (for serialization)."""
        return (*(getattr(self, name) for name in COUNTED), self.void)

    @classmethod
    def from_counters(cls, counters: tuple[int, ...]) -> ShoeStats:
        stats = cls()
        for name, value in zip((*COUNTED, "void"), counters, strict=True):
            setattr(stats, name, value)
        return stats

    def copy(self) -> ShoeStats:
        return ShoeStats.from_counters(self.counters())

    def as_dict(self, big_road: Columns) -> dict[str, Any]:
        """Counts, percentages, the longest Banker and Player streaks and the number of dragons."""
        played = self.played
        counts = {name: getattr(self, name) for name in COUNTED}
        percentages = {name: _percentage(count, played) for name, count in counts.items()}
        banker, player, dragons = runs_of_big_road(big_road)
        return {
            "rounds": played,
            "void_rounds": self.void,
            "counts": counts,
            "percentages": percentages,
            "longest_streak": {"banker": banker, "player": player},
            "dragons": dragons,
        }

    def values(self, big_road: Columns) -> tuple[Any, ...]:
        """The leaves of :meth:`as_dict` in its order, flat: rounds, void rounds, each count,
        each percentage, the longest Banker and Player streaks, the dragons."""
        counts = (self.banker, self.player, self.tie, self.player_pair, self.banker_pair)
        counts += (self.natural, self.banker_six)
        played = counts[0] + counts[1] + counts[2]
        if played <= _KEPT_UP_TO:
            share = _PERCENTAGES.get(played) or _percentages(played)
            percentages = tuple([share[count] for count in counts])
        else:
            percentages = tuple([_percentage(count, played) for count in counts])
        return (played, self.void, *counts, *percentages, *runs_of_big_road(big_road))


def _percentage(count: int, played: int) -> float:
    return round(100 * count / played, 2) if played else 0.0


# _PERCENTAGES[played][count]: _percentage, made once per number of rounds played (up to
# _KEPT_UP_TO, well past a real shoe's rounds: the table grows with its square).
_PERCENTAGES: dict[int, tuple[float, ...]] = {}
_KEPT_UP_TO = 160


def _percentages(played: int) -> tuple[float, ...]:
    found = _PERCENTAGES.get(played)
    if found is None:
        found = tuple([_percentage(count, played) for count in range(played + 1)])
        _PERCENTAGES[played] = found
    return found


def runs_of_big_road(big_road: Columns) -> tuple[int, int, int]:
    """The longest Banker and Player streaks and the number of dragons of the Big Road. Its
    columns alternate sides, so each side's columns are every other one; kept as the road grows
    (:meth:`Columns.longest_each`)."""
    if not big_road.lengths:
        return 0, 0, 0
    first, second, dragons = big_road.longest_each(DRAGON_LENGTH)
    return (first, second, dragons) if big_road.sides[0] == "B" else (second, first, dragons)
