"""Ask Banker / Ask Player (roadmap probing): the mark each derived road would get if the next
result were Banker or Player (DOMAIN.md, "Scorecards"). Only the Big Road's logical columns
decide it: the next Banker or Player takes the next cell of the current column when it is of
that side, else the first cell of a new column, and each road's rule
(:func:`roads.derived.derived_mark`) reads the columns before it. The same marks as grid cells
(:func:`next_cells`) tell a client where to draw them."""

from __future__ import annotations

from collections.abc import Sequence

from roads.bigroad import BigRoad
from roads.derived import DerivedRoad, derived_mark
from roads.grid import ROWS, GridLayout
from roads.shapes import NextCells, Probe

Marks = tuple[tuple[str | None, ...], tuple[str | None, ...]]  # for B, for P: one per road

NO_PROBE: Marks = ((None,) * 3, (None,) * 3)


def probe_marks(big_road: BigRoad, derived: Sequence[DerivedRoad]) -> Marks:
    """The mark of each road in ``derived`` for a next ``"B"``, and for a next ``"P"``."""
    lengths = big_road.columns.lengths
    column, row = big_road.next_position("B")
    banker = tuple([derived_mark(lengths, column, row, road.k) for road in derived])
    column, row = big_road.next_position("P")
    return banker, tuple([derived_mark(lengths, column, row, road.k) for road in derived])


def probe_dict(derived: Sequence[DerivedRoad], marks: Marks) -> Probe:
    """``{"B": {road: mark}, "P": {road: mark}}``, ``None`` where a road would not have begun."""
    names = [road.name for road in derived]
    return {  # type: ignore[return-value]
        side: dict(zip(names, side_marks, strict=True))
        for side, side_marks in zip("BP", marks, strict=True)
    }


def next_cells(
    big_road: BigRoad, derived: Sequence[DerivedRoad], played: int, marks: Marks
) -> NextCells:
    """The grid cell ``[col, row]`` each road's next mark would take were the next result Banker
    or Player (``marks``: :func:`probe_marks`), after ``played`` rounds on the Bead Plate;
    ``None`` where a derived road would get no mark. A mark of a column's side goes on down that
    column, any other starts a new one (as the roads place it), on a copy of the road's layout."""
    bead = [played // ROWS, played % ROWS]
    cells = {}
    for side, side_marks in zip("BP", marks, strict=True):
        side_cells: dict[str, list[int] | None] = {
            "bead_plate": bead,
            "big_road": _next_cell(big_road.columns.sides, big_road.layout, side),
        }
        for road, mark in zip(derived, side_marks, strict=True):
            side_cells[road.name] = (
                _next_cell(road.columns.sides, road.layout, mark) if mark else None
            )
        cells[side] = side_cells
    return cells  # type: ignore[return-value]


def _next_cell(sides: list[str], layout: GridLayout, mark: str) -> list[int]:
    """The grid cell a road whose columns are of ``sides`` would give its next ``mark``."""
    after = layout.copy()
    col, row = after.extend() if sides and sides[-1] == mark else after.new_column()
    return [col, row]
