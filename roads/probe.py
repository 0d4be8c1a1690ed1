"""Ask Banker / Ask Player (roadmap probing): the mark each derived road would get if the next
result were Banker or Player (DOMAIN.md, "Scorecards"). Only the Big Road's logical columns
decide it: the next Banker or Player takes the next cell of the current column when it is of
that side, else the first cell of a new column, and each road's rule
(:func:`roads.derived.derived_mark`) reads the columns before it."""

from __future__ import annotations

from collections.abc import Sequence

from roads.bigroad import BigRoad
from roads.derived import DerivedRoad, derived_mark
from roads.shapes import Probe

Marks = tuple[tuple[str | None, ...], tuple[str | None, ...]]  # for B, for P: one per road

NO_PROBE: Marks = ((None,) * 3, (None,) * 3)


def probe_marks(big_road: BigRoad, derived: Sequence[DerivedRoad]) -> Marks:
    """The mark of each road in ``derived`` for a next ``"B"``, and for a next ``"P"``."""
    lengths = big_road.columns.lengths
    marks = []
    for side in "BP":
        column, row = big_road.next_position(side)
        marks.append(tuple(derived_mark(lengths, column, row, road.k) for road in derived))
    return marks[0], marks[1]


def probe_dict(derived: Sequence[DerivedRoad], marks: Marks) -> Probe:
    """``{"B": {road: mark}, "P": {road: mark}}``, ``None`` where a road would not have begun."""
    names = [road.name for road in derived]
    return {  # type: ignore[return-value]
        side: dict(zip(names, side_marks, strict=True))
        for side, side_marks in zip("BP", marks, strict=True)
    }
