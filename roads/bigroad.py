"""The Big Road: the main scorecard, one column per run of Banker or Player wins.

- Ties never take a cell: a tie adds 1 to the tie count of the latest Banker/Player cell (drawn
  as a green slash with a count). Ties before the first Banker/Player result are kept as
  ``leading_ties`` and drawn on the first cell.
- The same winner as the previous Banker/Player result extends the column; a change starts a new
  one. Columns have no length limit; the display grid (:mod:`roads.grid`) lays them out on 6 rows
  with the dragon tail.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from roads.columns import Columns, alternating
from roads.grid import GridLayout, Tail, layout_cells
from roads.keptstate import KeptRoad
from roads.state import Reader

if TYPE_CHECKING:
    from roads.round import Round
    from roads.shapes import BigRoadShape

_RUN = re.compile(r"B+|P+")
_TIES = re.compile(r"T+")


class BigRoad:
    """The logical columns, per-cell round indexes and tie counts, and the display layout."""

    __slots__ = ("_kept", "cell_rounds", "columns", "layout", "leading_ties", "ties")

    def __init__(self, tail: Tail = "stay") -> None:
        self.columns = Columns()
        self.layout = GridLayout(tail)
        self.leading_ties = 0
        self.cell_rounds: list[int] = []  # index of each cell's round in the shoe
        self.ties: list[int] = []  # ties drawn on each cell
        self._kept = KeptRoad()  # the state bytes written so far (see roads.keptstate)

    def add(self, result: str, round_index: int) -> tuple[int, int] | None:
        """Add a result; return the logical ``(column, row)`` of its cell (``None`` for a tie)."""
        if result == "T":
            if self.ties:
                self.ties[-1] += 1
            else:
                self.leading_ties += 1
            return None
        row = self.columns.push(result)
        if row:
            self.layout.extend()
        else:
            self.layout.new_column()
        self.cell_rounds.append(round_index)
        self.ties.append(0)
        return len(self.columns.lengths) - 1, row

    def build(self, indexes: list[int], results: str) -> None:
        """Fill an empty road from a shoe's results (``"BPT..."``, one per played round) and
        their round indexes: the batch form of :meth:`add`."""
        self.leading_ties = len(results) - len(results.lstrip("T"))
        runs = _RUN.findall(results.replace("T", ""))
        self.cell_rounds = [
            index for index, result in zip(indexes, results, strict=True) if result != "T"
        ]
        ties = self.ties = [0] * len(self.cell_rounds)
        ties_before = self.leading_ties
        for tied in _TIES.finditer(results, self.leading_ties):
            # The tie run follows cell number (non-tie results before it) - 1.
            ties[tied.start() - ties_before - 1] += len(tied.group())
            ties_before += len(tied.group())
        if not runs:
            return
        lengths = list(map(len, runs))
        self.columns.extend_runs(alternating(runs[0][0], len(runs)), lengths)
        self.layout.place_columns(lengths)

    def next_position(self, side: str) -> tuple[int, int]:
        """The logical ``(column, row)`` a next Banker (``"B"``) or Player (``"P"``) would take."""
        sides = self.columns.sides
        if sides and sides[-1] == side:
            return len(sides) - 1, self.columns.lengths[-1]
        return len(sides), 0

    def as_dict(self, rounds: Sequence[Round]) -> BigRoadShape:
        """``{"leading_ties", "columns": [[cell, ...], ...]}``, each cell with its grid position
        and its round's pair and natural flags (``rounds``: the shoe's rounds, by index)."""
        positions = layout_cells(self.columns.lengths, self.layout.tail)
        cells = iter(zip(positions, self.cell_rounds, self.ties, strict=True))
        columns = []
        for side, length in zip(self.columns.sides, self.columns.lengths, strict=True):
            column = []
            for _ in range(length):
                (col, row), index, ties = next(cells)
                round = rounds[index]
                column.append(
                    {
                        "round": index + 1,
                        "result": side,
                        "ties": ties,
                        "col": col,
                        "row": row,
                        "player_pair": round.player_pair,
                        "banker_pair": round.banker_pair,
                        "natural": round.natural,
                    }
                )
            columns.append(column)
        return {"leading_ties": self.leading_ties, "columns": columns}

    def to_bytes(self) -> bytes:
        """The road's state (see :mod:`roads.state`): columns, leading ties, the tied cells and
        their counts, the layout; what earlier writes encoded is kept, not encoded again."""
        kept = self._kept
        return kept.road(self.columns, self.layout, kept.ties(self.leading_ties, self.ties))

    @classmethod
    def read(cls, reader: Reader, tail: Tail, cell_rounds: list[int]) -> BigRoad:
        """The road :meth:`to_bytes` wrote; ``cell_rounds`` (the round of each cell) is read
        off the shoe's rounds, not stored."""
        road = cls.__new__(cls)
        kept = road._kept = KeptRoad()
        road.columns = kept.read_columns(reader)
        road.cell_rounds = cell_rounds
        road.ties = [0] * len(cell_rounds)
        road.leading_ties = kept.read_ties(reader, road.ties)
        road.layout = kept.read_layout(reader, tail)
        return road

    def copy(self) -> BigRoad:
        other = BigRoad.__new__(BigRoad)
        other.columns = self.columns.copy()
        other.layout = self.layout.copy()
        other.leading_ties = self.leading_ties
        other.cell_rounds = list(self.cell_rounds)
        other.ties = list(self.ties)
        other._kept = self._kept.copy()
        return other
