"""What a grid layout under ``tail="stay"`` keeps of the columns it placed, for views of the
newest grid columns (a lobby tile, :mod:`roads.tileroads`): read off in the cost of the view,
not of the road.

Under "stay" a column's cells are rows 0 to ``depth - 1`` of the grid column where it starts,
then row ``depth - 1`` of each grid column after it up to where it ends: its :data:`Span`. A
:class:`ColumnSpans` keeps, as each cell is placed (amortized O(1) a cell):

- each column's span, with the index of its first cell among the road's cells;
- the columns that turned (their dragon tail may reach a view from far back), trimmed of the
  finished ones that ended left of the last view asked for: views only move right;
- each grid column's picture: the rows taken by even-numbered columns and by odd-numbered ones
  (:data:`ROWS` bits each): a road's columns alternate their two symbols, so that is all a view
  needs to draw it.
"""

from __future__ import annotations

from itertools import accumulate
from operator import itemgetter

ROWS = 6  # roads.grid's (which imports this module)
Span = tuple[int, int, int, int]  # start, depth, end, index of the column's first cell

_GROW = 64  # grid columns added to the pictures at a time
_FILL = tuple((1 << n) - 1 for n in range(ROWS + 1))  # _FILL[n]: rows 0 to n - 1


class ColumnSpans:
    """The spans of a road's columns placed under ``tail="stay"``, and its grid's picture."""

    __slots__ = ("cells", "last", "origin", "pictures", "spans", "tails")

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.tails: list[int] = []  # indexes of the columns that turned, in order
        self.cells = 0  # cells placed
        # The first grid column views may show: 0, or where a rebuilt one began to keep (each
        # column right of it has its span, the others None, and the pictures begin there).
        self.origin = 0
        self.last = -1  # the last occupied grid column
        # Per grid column: the rows taken by columns 0, 2, 4... << ROWS | by columns 1, 3, 5...
        self.pictures: list[int] = []

    def new_column(self, col: int) -> None:
        """A new column's first cell went to row 0 of grid column ``col``."""
        spans = self.spans
        spans.append((col, 1, col, self.cells))
        self.cells += 1
        if col > self.last:
            self.last = col
        self._take(col, 1 << ROWS if len(spans) & 1 else 1)

    def extend(self, col: int, row: int) -> None:
        """The current column's next cell went to ``(col, row)``: down its start column, or
        right along its tail's row."""
        spans = self.spans
        start, depth, end, first = spans[-1]
        if col == start:
            spans[-1] = (start, row + 1, end, first)
        else:
            if end == start:
                self.tails.append(len(spans) - 1)
            spans[-1] = (start, depth, col, first)
            if col > self.last:
                self.last = col
        self.cells += 1
        self._take(col, 1 << (row + ROWS if len(spans) & 1 else row))

    def _take(self, col: int, rows: int) -> None:
        pictures = self.pictures
        if col >= len(pictures):
            pictures += [0] * (col + _GROW - len(pictures))
        pictures[col] |= rows

    def placed(self, spans: list[tuple[int, int, int]], lengths: list[int]) -> None:
        """Whole columns were placed: their ``(start, depth, end)`` and lengths."""
        if not spans:
            return
        kept, tails, pictures = self.spans, self.tails, self.pictures
        cells, last, number = self.cells, self.last, len(kept)
        right = max(map(itemgetter(2), spans))
        if right >= len(pictures):
            pictures += [0] * (right + _GROW - len(pictures))
        for (start, depth, end), length in zip(spans, lengths, strict=True):
            shift = 0 if number & 1 else ROWS  # even-numbered columns' rows go high
            pictures[start] |= _FILL[depth] << shift
            if end > start:
                tails.append(number)
                bit = 1 << (depth - 1 + shift)
                for col in range(start + 1, end + 1):
                    pictures[col] |= bit
            kept.append((start, depth, end, cells))
            cells += length
            number += 1
        self.cells, self.last = cells, max(last, right)

    @classmethod
    def rebuilt(
        cls, spans: list[tuple[int, int, int]], lengths: list[int], origin: int, last: int
    ) -> ColumnSpans:
        """What a layout whose columns went to ``spans`` (their lengths ``lengths``, the last
        grid column any reaches ``last``) keeps for views that begin at grid column ``origin``
        or right of it: the spans of the columns with a cell there, and of the column before
        the first that starts there (a view looks back that far); the pictures from ``origin``
        on. Views only move right, so nothing left of ``origin`` is asked for again."""
        kept = cls()
        kept.origin = origin
        count = len(spans)
        begin = count
        while begin and spans[begin - 1][0] >= origin:
            begin -= 1
        begin = max(begin - 1, 0)
        starts = [0, *accumulate(lengths)]  # each column's first cell, then the cell count
        keep = [j for j in range(begin) if spans[j][2] >= origin] + list(range(begin, count))
        kept.spans = [None] * count  # type: ignore[list-item]
        kept.pictures = [0] * (last + _GROW)
        for column in keep:
            start, depth, end = spans[column]
            kept.spans[column] = (start, depth, end, starts[column])
            shift = ROWS if column % 2 == 0 else 0
            kept.pictures[start] |= _FILL[depth] << shift
            if end > start:
                kept.tails.append(column)
                bit = 1 << (depth - 1 + shift)
                for col in range(start + 1, end + 1):
                    kept.pictures[col] |= bit
        kept.cells, kept.last = starts[-1], last
        return kept

    def shown(self, width: int) -> tuple[int, int, list[tuple[int, Span]]]:
        """The last occupied grid column (-1: none), the first of the ``width`` grid columns
        up to it, and each column with a cell in those grid columns as ``(its index, its
        span)``, in order: the columns that started there, and the earlier ones whose tail
        reaches there."""
        spans, last = self.spans, self.last
        first = max(0, last + 1 - width)
        if first < self.origin:
            raise ValueError(f"kept for views from grid column {self.origin}, not {first}")
        index = len(spans)
        while index and spans[index - 1][0] >= first:
            index -= 1
        # A tail that ended left of ``first`` never reaches a later view (views only move
        # right): drop it for good, unless it is the current column's, which may grow yet.
        current = len(spans) - 1
        tails = self.tails = [t for t in self.tails if spans[t][2] >= first or t == current]
        shown = [(t, spans[t]) for t in tails if t < index]
        return last, first, shown + list(enumerate(spans[index:], start=index))

    def picture(self, first: int, last: int) -> list[int]:
        """The pictures of grid columns ``first`` to ``last``: the rows taken in each by
        even-numbered columns << :data:`ROWS` | by odd-numbered ones (bit ``r``: row ``r``)."""
        pictures = self.pictures[first : last + 1]
        return pictures + [0] * (last + 1 - first - len(pictures))

    def copy(self) -> ColumnSpans:
        other = ColumnSpans.__new__(ColumnSpans)
        other.spans, other.tails = list(self.spans), list(self.tails)
        other.cells, other.last, other.origin = self.cells, self.last, self.origin
        other.pictures = list(self.pictures)
        return other
