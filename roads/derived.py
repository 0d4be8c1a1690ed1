"""The derived roads: Big Eye Boy, Small Road and Cockroach Road.

Their red and blue marks say whether the Big Road is regular (red) or choppy (blue), not who won.
Road ``k`` (1 Big Eye Boy, 2 Small Road, 3 Cockroach Road) compares Big Road columns ``k`` apart,
always on the LOGICAL column lengths, never on the display grid. With ``L[n]`` the true length of
Big Road column ``n`` and ``m`` the 0-based row of a new Banker/Player result in column ``n``:

- ``m == 0`` (a new column), only if ``n - k - 1 >= 0``: red if ``L[n-1] == L[n-1-k]``, else blue;
- ``m >= 1``, only if ``n - k >= 0``, with ``p = L[n-k]``: blue if ``m == p``, else red.

So Big Eye Boy starts at the 2nd cell of column 2 (or the 1st cell of column 3), Small Road one
column later and Cockroach Road two columns later; after that every Banker/Player adds one mark.
Consecutive marks of one colour form a column, laid out with the Big Road's dragon-tail rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from roads.columns import Columns, alternating
from roads.grid import GridLayout, Tail, layout_cells
from roads.keptstate import KeptRoad
from roads.state import Reader

if TYPE_CHECKING:
    from roads.shapes import DerivedRoadShape

RED = "red"
BLUE = "blue"

# (name, k) of each derived road, in the order scorecards show them.
DERIVED_ROADS: tuple[tuple[str, int], ...] = (
    ("big_eye_boy", 1),
    ("small_road", 2),
    ("cockroach_road", 3),
)


def derived_mark(lengths: list[int], column: int, row: int, k: int) -> str | None:
    """The mark road ``k`` gets for a Big Road result at ``(column, row)`` (logical), or ``None``
    when the road has not started yet.

    ``lengths`` are the Big Road's logical column lengths; only columns before ``column`` are read,
    so they may already include the new result or not.
    """
    if row == 0:
        if column - k - 1 < 0:
            return None
        return RED if lengths[column - 1] == lengths[column - 1 - k] else BLUE
    if column - k < 0:
        return None
    return BLUE if row == lengths[column - k] else RED


def derived_marks(lengths: list[int], k: int) -> str:
    """Every mark of road ``k`` for a Big Road with these column lengths, as a string of ``r``
    (red) and ``b`` (blue): the batch form of :func:`derived_mark`, a column at a time."""
    parts: list[str] = []
    for column in range(k, len(lengths)):
        length = lengths[column]
        if column > k:
            parts.append("r" if lengths[column - 1] == lengths[column - 1 - k] else "b")
        if length > 1:
            rest = _REST.get((lengths[column - k], length))
            if rest is None:
                rest = _rows_after_first(lengths[column - k], length)
            parts.append(rest)
    return "".join(parts)


def _rows_after_first(p: int, length: int) -> str:
    """Marks of rows 1.. of a column of this length when column n-k has length ``p``: red,
    except blue on row ``p``, where that column ended."""
    if p < length:
        return "r" * (p - 1) + "b" + "r" * (length - 1 - p)
    return "r" * (length - 1)


# The common cases, ready-made: columns of up to 12 against columns of up to 12.
_REST = {(p, n): _rows_after_first(p, n) for p in range(1, 13) for n in range(2, 13)}


_RUN = re.compile(r"r+|b+")
_COLOR = {"r": RED, "b": BLUE}


class DerivedRoad:
    """One derived road: its marks as columns of one colour, and their grid layout."""

    __slots__ = ("_kept", "columns", "k", "layout", "name")

    def __init__(self, name: str, k: int, tail: Tail = "stay") -> None:
        self.name = name
        self.k = k
        self.columns = Columns()
        self.layout = GridLayout(tail)
        self._kept = KeptRoad()  # the state bytes written so far (see roads.keptstate)

    def add(self, lengths: list[int], column: int, row: int) -> None:
        """Add the mark for a Big Road result at logical ``(column, row)``, once the road began."""
        mark = derived_mark(lengths, column, row, self.k)
        if mark is None:
            return
        if self.columns.push(mark):
            self.layout.extend()
        else:
            self.layout.new_column()

    def build(self, lengths: list[int]) -> None:
        """Fill an empty road from the Big Road's final column lengths (batch form of
        :meth:`add`)."""
        runs = _RUN.findall(derived_marks(lengths, self.k))
        if not runs:
            return
        run_lengths = list(map(len, runs))
        self.columns.extend_runs(alternating(_COLOR[runs[0][0]], len(runs)), run_lengths)
        self.layout.place_columns(run_lengths)

    def marks(self) -> list[str]:
        """Every mark in order."""
        marks: list[str] = []
        for side, length in zip(self.columns.sides, self.columns.lengths, strict=True):
            marks += [side] * length
        return marks

    def as_dict(self) -> DerivedRoadShape:
        """``{"marks": [...], "columns": [[{"color", "col", "row"}, ...], ...]}``."""
        cells = iter(layout_cells(self.columns.lengths, self.layout.tail))
        columns = []
        for side, length in zip(self.columns.sides, self.columns.lengths, strict=True):
            column = []
            for _ in range(length):
                col, row = next(cells)
                column.append({"color": side, "col": col, "row": row})
            columns.append(column)
        return {"marks": self.marks(), "columns": columns}

    def to_bytes(self) -> bytes:
        """The road's state (see :mod:`roads.state`): its columns and its layout; what earlier
        writes encoded is kept, not encoded again."""
        return self._kept.road(self.columns, self.layout)

    @classmethod
    def read(cls, reader: Reader, name: str, k: int, tail: Tail) -> DerivedRoad:
        """The road ``name`` (``k``) as :meth:`to_bytes` wrote it."""
        road = cls.__new__(cls)
        road.name, road.k = name, k
        kept = road._kept = KeptRoad()
        road.columns = kept.read_columns(reader)
        road.layout = kept.read_layout(reader, tail)
        return road

    def copy(self) -> DerivedRoad:
        other = DerivedRoad.__new__(DerivedRoad)
        other.name, other.k = self.name, self.k
        other.columns = self.columns.copy()
        other.layout = self.layout.copy()
        other._kept = self._kept.copy()
        return other
