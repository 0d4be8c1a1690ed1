"""A shoe's roads document (:meth:`roads.Scorecard.as_dict`) kept as rounds are added, and what a
round adds to it.

Every list of the document grows at its end (:mod:`roads.delta`): a round adds at most a bead, a
Big Road cell or a tie on the latest one, and a mark to each derived road. :func:`growth_of`
reads what the round added off the roads' ends before it (:class:`Ends`, taken in O(1)) and the
roads after it; :meth:`Growth.ops` is that as the round's JSON Patch operations on the document's
lists (the start of :func:`roads.delta.round_patch`), and :meth:`KeptDocument.advance` applies
the same growth to the kept lists. So the document after each round costs O(change), not
O(shoe); it is built whole once, when first asked for after the scorecard was built or read.

Sharing (the aliasing rule). A document handed out (:meth:`KeptDocument.as_dict`) shares its lists
and dicts with the kept one; later rounds never change it: the kept lists are copied before they
next grow when a document handed out since still holds them (:meth:`KeptDocument.advance`;
CPython's reference count tells whether one does, :func:`_held`: a document the caller dropped
costs no copy), and a cell or mark once made is never changed in place (a tie replaces its cell
with a new one). The caller may read and keep the document, not change it in place (nor apply a
patch to it in place): that would change the scorecard's kept document too. Take a
``copy.deepcopy`` to edit one. A round's patch shares nothing with the kept document (that takes
copies of what the round added), so a client may apply it in place to a document of its own.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NamedTuple

from roads.beadplate import bead_of

if TYPE_CHECKING:
    from roads.bigroad import BigRoad
    from roads.derived import DerivedRoad
    from roads.round import Round
    from roads.shapes import Bead, BigRoadShape, DerivedRoadShape

Operation = dict[str, Any]
# A scorecard's ends: beads, the Big Road's columns, its last column's length, the ties on its
# last cell, its leading ties, and each derived road's columns and last column's length.
Ends = tuple[int, int, int, int, int, tuple[tuple[int, int], ...]]


def ends_of(big_road: BigRoad, derived: tuple[DerivedRoad, ...], beads: int) -> Ends:
    """How far each growing list of the document reaches (O(1))."""
    lengths = big_road.columns.lengths
    return (
        beads,
        len(lengths),
        lengths[-1] if lengths else 0,
        big_road.ties[-1] if big_road.ties else 0,
        big_road.leading_ties,
        tuple([_road_end(road) for road in derived]),
    )


def _road_end(road: DerivedRoad) -> tuple[int, int]:
    lengths = road.columns.lengths
    return len(lengths), lengths[-1] if lengths else 0


class Growth(NamedTuple):
    """What one round added to the document's lists (all empty for a void round): a bead and
    the new round count; the new leading ties, or the new tie count of the latest cell, or a
    new Big Road cell (``new_column``: it starts a column); each derived road's new mark, as
    ``(road index, name, mark, its column, starts a column)``. The kept document takes them
    as they are (:meth:`KeptDocument.advance`); :meth:`ops` gives copies, so the round's patch
    shares nothing with it. (A named tuple: a value, made every round, quicker to make than a
    frozen dataclass.)"""

    bead: Bead | None = None
    leading_ties: int | None = None
    tie: tuple[int, int, int] | None = None  # (column, row, ties) of the latest cell
    cell: dict[str, Any] | None = None
    column: int = 0  # the cell's column
    new_column: bool = False
    marks: tuple[tuple[int, str, dict[str, Any], int, bool], ...] = ()
    rounds: int = 0  # on the Bead Plate, after the round

    def ops(self) -> list[Operation]:
        """The round's operations on the document's lists, as :func:`roads.delta.diff` of the
        two documents orders them (the small parts' come after, :mod:`roads.smallparts`)."""
        operations: list[Operation] = []
        if self.bead is not None:
            operations.append({"op": "replace", "path": "/rounds", "value": self.rounds})
            operations.append({"op": "add", "path": "/bead_plate/-", "value": self.bead.copy()})
        if self.leading_ties is not None:
            value = self.leading_ties
            operations.append({"op": "replace", "path": "/big_road/leading_ties", "value": value})
        elif self.tie is not None:
            column, row, ties = self.tie
            where = f"/big_road/columns/{column}/{row}/ties"
            operations.append({"op": "replace", "path": where, "value": ties})
        elif self.cell is not None:
            cell = self.cell.copy()
            operations.append(_grown("/big_road/columns", self.column, self.new_column, cell))
        for _, name, mark, column, new_column in self.marks:
            operations.append({"op": "add", "path": f"/{name}/marks/-", "value": mark["color"]})
            operations.append(_grown(f"/{name}/columns", column, new_column, mark.copy()))
        return operations


def _grown(path: str, column: int, new_column: bool, item: dict[str, Any]) -> Operation:
    """The newest item of a road: in a new column, or at the end of the last one."""
    if new_column:
        return {"op": "add", "path": f"{path}/-", "value": [item]}
    return {"op": "add", "path": f"{path}/{column}/-", "value": item}


def growth_of(
    before: Ends,
    big_road: BigRoad,
    derived: tuple[DerivedRoad, ...],
    beads: int,
    number: int,
    round: Round,
) -> Growth:
    """What ``round`` (round ``number`` of the shoe, void or not) added to a scorecard whose
    ends were ``before``; ``big_road``, ``derived`` and ``beads`` (rounds on the Bead Plate)
    are the scorecard's after it."""
    if beads == before[0]:
        return _VOID
    bead = bead_of(number, round, beads - 1)
    lengths = big_road.columns.lengths
    if big_road.leading_ties != before[4]:
        return Growth(bead, leading_ties=big_road.leading_ties, rounds=beads)
    column = len(lengths) - 1
    if column + 1 == before[1] and lengths[-1] == before[2]:
        return Growth(bead, tie=(column, lengths[-1] - 1, big_road.ties[-1]), rounds=beads)
    _, col, row, _ = big_road.layout.cursor()
    cell = {
        "round": big_road.cell_rounds[-1] + 1,
        "result": round.result,
        "ties": 0,
        "col": col,
        "row": row,
        "player_pair": round.player_pair,
        "banker_pair": round.banker_pair,
        "natural": round.natural,
    }
    marks = []
    for index, (road, end) in enumerate(zip(derived, before[5], strict=True)):
        road_lengths = road.columns.lengths
        if (len(road_lengths), road_lengths[-1] if road_lengths else 0) == end:
            continue
        _, col, row, _ = road.layout.cursor()
        mark = {"color": road.columns.sides[-1], "col": col, "row": row}
        marks.append((index, road.name, mark, len(road_lengths) - 1, len(road_lengths) > end[0]))
    new_column = len(lengths) > before[1]
    return Growth(
        bead, cell=cell, column=column, new_column=new_column, marks=tuple(marks), rounds=beads
    )


_VOID = Growth()


#: A list's reference count: CPython's. Where there is none, every lent list counts as held
#: (copied before it grows, as a kept document always did).
_count = getattr(sys, "getrefcount", None)


def _held(items: list[Any]) -> bool:
    """Whether a kept list, read off its attribute, is held by more than the kept document: by a
    document handed out, or by another kept document sharing it since a copy. A list held
    elsewhere is copied before it grows; one held by nobody else grows in place."""
    return _count is None or _count(items) > _ALONE


def _counted(items: list[Any]) -> int:
    return _count(items) if _count is not None else 0  # called as _held calls it: same frames


def _alone() -> int:
    """What :func:`_held` counts of a list that only its holder holds (here another list)."""
    holder: list[list[Any]] = [[]]
    return _counted(holder[0])


_ALONE = _alone()


class KeptDocument:
    """The growing lists of a shoe's roads document, kept current round by round (see the
    module docstring for what a handed-out document shares)."""

    __slots__ = ("_last", "_lent", "_lent_roads", "beads", "columns", "leading_ties")
    __slots__ += ("road_columns", "road_marks")

    def __init__(
        self,
        beads: list[Bead],
        big_road: BigRoadShape,
        roads: list[DerivedRoadShape],
    ) -> None:
        """Keep a whole document's lists (taken, not copied: the caller lets go of them)."""
        self.beads = beads
        self.leading_ties = big_road["leading_ties"]
        self.columns: list[list[Any]] = big_road["columns"]  # type: ignore[assignment]
        self.road_marks = [road["marks"] for road in roads]
        self.road_columns: list[list[list[Any]]] = [road["columns"] for road in roads]  # type: ignore[misc]
        # Whether a document handed out shares the Bead Plate's and Big Road's lists that grow,
        # and each derived road's.
        self._lent = False
        self._lent_roads = [False] * len(self.road_marks)
        self._last: tuple[Ends, int, Growth] | None = None  # the last growth, and what from

    def grow(
        self,
        before: Ends,
        big_road: BigRoad,
        derived: tuple[DerivedRoad, ...],
        beads: int,
        number: int,
        round: Round,
    ) -> None:
        """Add what round ``number`` added (:func:`growth_of`, whose arguments these are), and
        keep that growth for the round's patch (:meth:`grown`)."""
        growth = growth_of(before, big_road, derived, beads, number, round)
        self.advance(growth)
        self._last = (before, number, growth)

    def grown(self, before: Ends, number: int) -> Growth | None:
        """The growth of round ``number`` from ends ``before`` when :meth:`grow` made it last."""
        last = self._last
        return last[2] if last is not None and last[:2] == (before, number) else None

    def advance(self, growth: Growth) -> None:
        """Add what one round added (:func:`growth_of`). A list a handed-out document shares
        is copied before it grows (only the lists this round grows: the others stay lent)."""
        if growth.bead is None:
            return
        lent = self._lent
        if lent:
            # Lent lists are copied, unless the documents they went out in are gone.
            if _held(self.beads):
                self.beads = list(self.beads)
            if _held(self.columns):
                self.columns = list(self.columns)
            self._lent = False
        # The growth's items themselves: the round's patch carries copies (Growth.ops).
        self.beads.append(growth.bead)
        if growth.leading_ties is not None:
            self.leading_ties = growth.leading_ties
        elif growth.tie is not None:
            columns = self.columns
            if lent and _held(columns[-1]):
                columns[-1] = list(columns[-1])
            last = columns[-1]
            last[-1] = {**last[-1], "ties": growth.tie[2]}  # a new cell: the old one stays
        elif growth.cell is not None:
            _add(self.columns, growth.new_column, growth.cell, lent)
        lent_roads = self._lent_roads
        for index, _, mark, _, new_column in growth.marks:
            marks, columns = self.road_marks, self.road_columns
            lent = lent_roads[index]
            if lent:
                if _held(marks[index]):
                    marks[index] = list(marks[index])
                if _held(columns[index]):
                    columns[index] = list(columns[index])
                lent_roads[index] = False
            marks[index].append(mark["color"])
            _add(columns[index], new_column, mark, lent)

    def as_dict(self, names: list[str], small: dict[str, Any]) -> dict[str, Any]:
        """The document: the kept lists, each derived road under its name (in ``names``' order),
        and the small parts (:meth:`roads.smallparts.SmallParts.shown`)."""
        self._lent = True
        self._lent_roads = [True] * len(self.road_marks)
        document: dict[str, Any] = {
            "rounds": len(self.beads),
            "bead_plate": self.beads,
            "big_road": {"leading_ties": self.leading_ties, "columns": self.columns},
        }
        for name, marks, columns in zip(names, self.road_marks, self.road_columns, strict=True):
            document[name] = {"marks": marks, "columns": columns}
        document.update(small)
        return document

    def copy(self) -> KeptDocument:
        """A document kept apart from this one from now on (the two share their lists until
        either grows, which copies them first)."""
        other = KeptDocument.__new__(KeptDocument)
        other.beads, other.columns, other.leading_ties = self.beads, self.columns, self.leading_ties
        # Each its own list of roads (advance replaces a road's lists in it), the roads shared.
        other.road_marks, other.road_columns = list(self.road_marks), list(self.road_columns)
        other._lent = self._lent = True
        other._lent_roads = [True] * len(self.road_marks)
        self._lent_roads = [True] * len(self.road_marks)
        other._last = None
        return other


def _add(columns: list[list[Any]], new_column: bool, item: dict[str, Any], lent: bool) -> None:
    """Add ``item`` to the road's ``columns``; when ``lent`` and a document handed out still
    holds its last column, that column is replaced by a longer copy, not grown."""
    if new_column:
        columns.append([item])
    elif lent and _held(columns[-1]):
        columns[-1] = [*columns[-1], item]
    else:
        columns[-1].append(item)
