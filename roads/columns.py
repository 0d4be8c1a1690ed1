"""Runs of equal symbols grouped into columns, the logical shape shared by every road.

On the Big Road the symbols are winners (``"B"``/``"P"``); on a derived road they are colours
(``"red"``/``"blue"``). Consecutive equal symbols extend a column; a change starts a new one.
Columns have no length limit: the display grid's dragon tail is the layout's business
(:mod:`roads.grid`), never this one's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Streak:
    """A run: the side (``B``/``P``) or colour (``red``/``blue``) and how many in a row."""

    side: str | None
    length: int

    def as_dict(self) -> dict[str, Any]:
        return {"side": self.side, "length": self.length}


NO_STREAK = Streak(None, 0)

# Each road's two symbols: a column of one is always followed by a column of the other.
OTHER = {"B": "P", "P": "B", "red": "blue", "blue": "red"}


def alternating(first: str, count: int) -> list[str]:
    """The symbols of ``count`` columns whose first is ``first``: consecutive columns of a road
    always hold different symbols, so a road's columns are its first symbol and their lengths."""
    pair = [first, OTHER[first]]
    return pair * (count // 2) + pair[:1] * (count % 2)


class Columns:
    """The columns of a road: one symbol and one length per column, and the longest run so far.

    The longest run is the first column that reached the greatest length.
    """

    __slots__ = ("_longest", "_tally", "lengths", "sides")

    def __init__(self) -> None:
        self.sides: list[str] = []
        self.lengths: list[int] = []
        self._longest = -1  # index of the longest column
        # longest_each's last answer: (at_least, columns, last length, even, odd, long).
        self._tally: tuple[int, int, int, int, int, int] | None = None

    def push(self, side: str) -> int:
        """Add one symbol; return its 0-based row in its column (0 means it started a column)."""
        sides = self.sides
        if sides and sides[-1] == side:
            lengths = self.lengths
            row = lengths[-1]
            lengths[-1] = row + 1
            if row + 1 > lengths[self._longest]:
                self._longest = len(lengths) - 1
            return row
        sides.append(side)
        self.lengths.append(1)
        if self._longest < 0:
            self._longest = 0
        return 0

    @classmethod
    def of_runs(cls, first: str, lengths: list[int]) -> Columns:
        """Whole columns at once, the first of symbol ``first`` (the batch form of :meth:`push`)."""
        columns = cls()
        columns.extend_runs(alternating(first, len(lengths)), lengths)
        return columns

    def extend_runs(self, sides: list[str], lengths: list[int]) -> None:
        """Fill an empty road with whole columns at once (the batch form of :meth:`push`)."""
        self.sides.extend(sides)
        self.lengths.extend(lengths)
        if self.lengths:
            best = max(self.lengths)
            self._longest = self.lengths.index(best)

    @property
    def current(self) -> Streak:
        """The run in progress: the last column."""
        if not self.sides:
            return NO_STREAK
        return Streak(self.sides[-1], self.lengths[-1])

    @property
    def longest(self) -> Streak:
        """The longest run of the shoe (the earliest, when several are equally long)."""
        if self._longest < 0:
            return NO_STREAK
        return Streak(self.sides[self._longest], self.lengths[self._longest])

    def run_values(self) -> tuple[str | None, int, str | None, int]:
        """The current and the longest run as ``(side, length, side, length)``: the values of
        :meth:`runs`, read in O(1) without building them."""
        if self._longest < 0:
            return None, 0, None, 0
        longest = self._longest
        return self.sides[-1], self.lengths[-1], self.sides[longest], self.lengths[longest]

    def longest_each(self, at_least: int) -> tuple[int, int, int]:
        """The longest of the even-numbered columns (0, 2, ...: the first symbol's), of the
        odd-numbered ones, and how many columns are ``at_least`` long. Columns only grow at
        their end, so only the columns from the last one asked about on are read again."""
        lengths = self.lengths
        count = len(lengths)
        if not count:
            return 0, 0, 0
        tally = self._tally
        if tally is None or tally[0] != at_least or tally[1] > count:
            start = even = odd = long = 0
        else:
            start, last, even, odd, long = tally[1] - 1, tally[2], tally[3], tally[4], tally[5]
            long -= last >= at_least  # the last column is counted again below, as it is now
        for index in range(start, count):  # a round or two's worth once kept
            length = lengths[index]
            if index & 1:
                if length > odd:
                    odd = length
            elif length > even:
                even = length
            if length >= at_least:
                long += 1
        self._tally = (at_least, count, lengths[-1], even, odd, long)
        return even, odd, long

    def runs(self) -> dict[str, dict[str, Any]]:
        """``{"current": streak, "longest": streak}``, each as :meth:`Streak.as_dict`."""
        return {"current": self.current.as_dict(), "longest": self.longest.as_dict()}

    def copy(self) -> Columns:
        other = Columns()
        other.sides = list(self.sides)
        other.lengths = list(self.lengths)
        other._longest = self._longest
        other._tally = self._tally
        return other


def runs_of(roads: Iterable[tuple[str, Columns]]) -> Any:
    """The current and longest run of each named road's columns (a :class:`roads.shapes.Streaks`
    for a scorecard's four roads)."""
    return {name: columns.runs() for name, columns in roads}
