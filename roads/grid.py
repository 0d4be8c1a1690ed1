"""Laying a road's columns out on its 6-row display grid, with the dragon tail.

The logical road is a list of columns of any length; the display grid has :data:`ROWS` rows.
The rule, for the Big Road and every derived road alike:

- Column j starts at row 0 of the first grid column right of column j-1's start whose top cell is
  free (normally grid column j; later when an earlier dragon tail runs along the top row).
- Each next cell of a column goes down if the column has not turned yet, the row below exists and
  the cell below is free; otherwise it turns right and, by default (``tail="stay"``), stays on that
  row for the rest of the streak: the dragon tail. Any occupied cell blocks.
- With ``tail="drop"`` the other convention applies: at every step the cell tries to go down again
  first, so a tail that passed an obstacle drops back under it.

A :class:`GridLayout` is what it takes to go on placing cells: which cells are taken (a bit mask of
rows per grid column) and where the column being drawn stands. It places one cell at a time
(:meth:`GridLayout.new_column`, :meth:`GridLayout.extend`) or whole columns
(:meth:`GridLayout.place_columns`); both give the same cells. A road does not keep its cells:
they follow from its column lengths alone, and :func:`layout_cells` computes them when read.

Under ``tail="stay"`` a layout also keeps the span of each column it places
(:class:`roads.gridspans.ColumnSpans`), so a view of the newest grid columns (a lobby tile) is
read off the last few instead of placing every column again. A layout restored from its
occupancy (:meth:`GridLayout.restore`) has none until :meth:`GridLayout.kept_spans` places its
columns once more.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Literal

from roads.gridspans import ColumnSpans

ROWS = 6
Tail = Literal["stay", "drop"]
TAILS: tuple[str, ...] = ("stay", "drop")

_PAD = bytes(64)
# _FILL[n]: bit mask of rows 0..n-1.
_FILL = tuple((1 << n) - 1 for n in range(ROWS + 1))


def layout_cells(lengths: list[int], tail: Tail = "stay") -> list[tuple[int, int]]:
    """The ``(col, row)`` grid cell of every item of a road with these column lengths, in order."""
    cells: list[tuple[int, int]] = []
    GridLayout(tail).place_columns(lengths, cells)
    return cells


class GridLayout:
    """Which grid cells a road has taken, and where its current column stands."""

    __slots__ = ("_col", "_occupied", "_row", "_start", "_turned", "spans", "tail")

    def __init__(self, tail: Tail = "stay") -> None:
        if tail not in TAILS:
            raise ValueError(f"tail must be 'stay' or 'drop', not {tail!r}")
        self.tail = tail
        # One bit mask of occupied rows per grid column, padded so that the column right of any
        # occupied one can be read without a bounds check. A bytearray, so that the state's
        # bytes (occupancy) are copied, not converted an int at a time.
        self._occupied = bytearray(_PAD)
        self._start = -1  # grid column where the current column started
        self._col = 0  # the current column's last cell
        self._row = 0
        self._turned = False  # whether the current column has turned right (its dragon tail)
        # Under "stay", the placed columns' spans (None under "drop", or after a restore).
        self.spans: ColumnSpans | None = ColumnSpans() if tail == "stay" else None

    def new_column(self) -> tuple[int, int]:
        """Place the first cell of a new column and return it."""
        occupied = self._occupied
        col = self.peek(False)[0]
        self._start = self._col = col
        self._row = 0
        self._turned = False
        occupied[col] |= 1
        if col + 2 > len(occupied):
            occupied += _PAD
        if self.spans is not None:
            self.spans.new_column(col)
        return col, 0

    def extend(self) -> tuple[int, int]:
        """Place the next cell of the current column and return it."""
        occupied = self._occupied
        col, row = self.peek(True)
        if row == self._row:  # not below the last cell: the column turns right (or still runs)
            self._turned = True
        self._col, self._row = col, row
        occupied[col] |= 1 << row
        if col + 2 > len(occupied):
            occupied += _PAD
        if self.spans is not None:
            self.spans.extend(col, row)
        return col, row

    def peek(self, extend: bool) -> tuple[int, int]:
        """The grid cell the next cell would take: the current column's next (``extend``) or a
        new column's first, as :meth:`extend` or :meth:`new_column` would place it; nothing is
        placed."""
        occupied = self._occupied
        if not extend:
            col = self._start + 1
            while occupied[col] & 1:
                col += 1
            return col, 0
        col, row = self._col, self._row
        below = row + 1
        if (
            (not self._turned or self.tail == "drop")
            and below < ROWS
            and not occupied[col] >> below & 1
        ):
            return col, below
        col += 1
        # Under "stay" an earlier tail never lies to the right of a tail (it would have stopped
        # this column higher up); under "drop" step over one if it does.
        while occupied[col] >> row & 1:
            col += 1
        return col, row

    def place_columns(
        self,
        lengths: list[int],
        cells: list[tuple[int, int]] | None = None,
        spans: list[tuple[int, int, int]] | None = None,
    ) -> None:
        """Place whole new columns of these lengths (the batch form of new_column + extend),
        adding their cells to ``cells`` when a list is given, and under ``tail="stay"`` each
        column's ``(start, depth, end)`` to ``spans``: its cells are rows 0 to ``depth - 1`` of
        grid column ``start``, then row ``depth - 1`` of the columns after it up to ``end``."""
        if self.tail == "drop":
            if spans is not None:
                raise ValueError("a dropping tail is not one row: no spans")
            for length in lengths:
                placed = [self.new_column()] + [self.extend() for _ in range(length - 1)]
                if cells is not None:
                    cells += placed
            return
        occupied = self._occupied
        kept = self.spans
        if kept is not None and spans is None:
            spans = []  # the spans are kept whether or not the caller wants them
        already = len(spans) if spans is not None else 0
        # No column can end further right than one column per cell: pad once for the batch.
        room = self._start + sum(lengths) + 3 - len(occupied)
        if room > 0:
            occupied += bytes(room)
        start = self._start
        end = row = 0
        for length in lengths:
            col = start + 1
            while occupied[col] & 1:
                col += 1
            blocked = occupied[col]
            # The column goes down to just above its lowest occupied row (or the bottom row).
            depth = (blocked & -blocked).bit_length() - 1 if blocked else ROWS
            if length < depth:
                depth = length
            occupied[col] = blocked | _FILL[depth]
            row = depth - 1
            end = col + length - depth
            if end > col:
                bit = 1 << row
                for tail_col in range(col + 1, end + 1):
                    occupied[tail_col] |= bit
            if cells is not None:
                cells += [(col, r) for r in range(depth)]
                cells += [(c, row) for c in range(col + 1, end + 1)]
            if spans is not None:
                spans.append((col, depth, end))
            start = col
        if lengths:
            self._start = start
            self._col, self._row = end, row
            self._turned = end > start
        if kept is not None and spans is not None:
            kept.placed(spans[already:], lengths)

    def copy(self) -> GridLayout:
        other = GridLayout.__new__(GridLayout)
        other.tail = self.tail
        other._occupied = bytearray(self._occupied)
        other._start, other._col, other._row = self._start, self._col, self._row
        other._turned = self._turned
        other.spans = None if self.spans is None else self.spans.copy()
        return other

    def kept_spans(self, lengths: list[int], width: int | None = None) -> ColumnSpans:
        """Under "stay", the spans of the road's columns, whose lengths are ``lengths`` (all
        placed already): kept as placed, or, when this layout has none (after a restore),
        placed once more on a layout of their own and kept for views of ``width`` grid
        columns (None: of any width) from now on."""
        if self.tail != "stay":
            raise ValueError("a dropping tail is not one row: no spans")
        if self.spans is None:
            fresh = GridLayout("stay")
            fresh.spans = None  # placed plainly: only the spans a view can still need are kept
            spans: list[tuple[int, int, int]] = []
            fresh.place_columns(lengths, spans=spans)
            last = max(map(itemgetter(2), spans), default=-1)
            origin = 0 if width is None else max(0, last + 1 - width)
            self.spans = ColumnSpans.rebuilt(spans, lengths, origin, last)
        return self.spans

    def occupancy(self, first: int = 0) -> bytes:
        """The occupied rows of each grid column from column ``first`` on as one byte, up to the
        last occupied column."""
        return bytes(self._occupied[first:]).rstrip(b"\0")

    def cursor(self) -> tuple[int, int, int, bool]:
        """Where the current column stands: (start col, col, row, turned)."""
        return self._start, self._col, self._row, self._turned

    @classmethod
    def restore(
        cls, tail: Tail, occupancy: bytes, cursor: tuple[int, int, int, bool]
    ) -> GridLayout:
        """A layout from its :meth:`occupancy` and :meth:`cursor` (the inverse of both)."""
        layout = cls(tail)
        layout._occupied = bytearray(occupancy) + _PAD
        layout._start, layout._col, layout._row, layout._turned = cursor
        layout.spans = None  # not in the occupancy: kept_spans places the columns again if asked
        return layout
