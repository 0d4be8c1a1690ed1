"""A scorecard's small parts, the probe, next cells, streaks and statistics, as flat values: worked
out once per scorecard state (:meth:`roads.Scorecard.small_parts`), read by every reader of that
state (the roads document, the round's patch, the lobby tile's streaks, the next round's patch),
and compared leaf by leaf for a round's patch.

Each part is a tuple of its leaves, in the order the part's JSON (:mod:`roads.shapes`) lists them
depth first: the probe's 6 marks (Banker's three roads, then Player's), the next cells' 10 cells
(for Banker then Player: bead plate, Big Road, the three derived roads), the streaks' 16 values
(for each road, current then longest, side then length) and the statistics' 19 (rounds, void
rounds, each count, each percentage, the longest Banker and Player streaks, the dragons).
:func:`small_ops` turns two states' leaves into the ``replace`` operations a JSON Patch diff of
the two parts' JSON gives (:func:`roads.delta.diff`), in its order: every place of a small part
keeps its JSON type, and a next cell is ``None`` or ``[col, row]``, replaced whole when it comes
or goes and coordinate by coordinate otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roads.bigroad import BigRoad
from roads.derived import DERIVED_ROADS, DerivedRoad
from roads.grid import ROWS
from roads.stats import COUNTED, ShoeStats

Operation = dict[str, Any]
Marks = tuple[tuple[str | None, ...], tuple[str | None, ...]]  # roads.probe's
Cell = tuple[int, int]

_DERIVED = tuple(name for name, _ in DERIVED_ROADS)
_CELL_ROADS = ("bead_plate", "big_road", *_DERIVED)
_RUN_ROADS = ("big_road", *_DERIVED)
_PROBE_PATHS = tuple(f"/probe/{side}/{road}" for side in "BP" for road in _DERIVED)
_CELL_PATHS = tuple(
    (path, f"{path}/0", f"{path}/1")
    for path in (f"/next_cells/{side}/{road}" for side in "BP" for road in _CELL_ROADS)
)
_RUN_PATHS = tuple(
    f"/streaks/{road}/{run}/{leaf}"
    for road in _RUN_ROADS
    for run in ("current", "longest")
    for leaf in ("side", "length")
)
_STATS_PATHS = (
    "/stats/rounds",
    "/stats/void_rounds",
    *(f"/stats/counts/{name}" for name in COUNTED),
    *(f"/stats/percentages/{name}" for name in COUNTED),
    "/stats/longest_streak/banker",
    "/stats/longest_streak/player",
    "/stats/dragons",
)


class SmallParts:
    """The small parts of one scorecard state as flat leaves (see the module docstring). A value:
    nothing in it changes once made, so scorecard copies and patches may share it. The JSON of
    each part is built when asked: :meth:`shown` once per state (the roads document's, shared),
    the single parts afresh each call (their caller's to change)."""

    __slots__ = ("_shown", "cells", "probe", "runs", "stats")

    def __init__(
        self,
        probe: tuple[str | None, ...],
        cells: tuple[Cell | None, ...],
        runs: tuple[Any, ...],
        stats: tuple[Any, ...],
    ) -> None:
        self.probe, self.cells, self.runs, self.stats = probe, cells, runs, stats
        self._shown: dict[str, Any] | None = None

    @classmethod
    def of(
        cls,
        big_road: BigRoad,
        derived: Sequence[DerivedRoad],
        stats: ShoeStats,
        played: int,
        marks: Marks,
    ) -> SmallParts:
        """The small parts of a scorecard with these roads and statistics, ``played`` rounds on
        its Bead Plate and these probe marks (:func:`roads.probe.probe_marks`)."""
        bead = (played // ROWS, played % ROWS)
        sides, layout = big_road.columns.sides, big_road.layout
        last = sides[-1] if sides else None
        big = (layout.peek(last == "B"), layout.peek(last == "P"))
        cells: list[list[Cell | None]] = [[bead, big[0]], [bead, big[1]]]
        for road, banker, player in zip(derived, *marks, strict=True):
            # A road's next cell for a mark is the next of its column or the top of a new
            # one; a mark of the same colour for either side is in the same cell.
            sides = road.columns.sides
            last = sides[-1] if sides else None
            on_banker = None if banker is None else road.layout.peek(banker == last)
            if player is None:
                on_player = None
            elif player == banker:
                on_player = on_banker
            else:
                on_player = road.layout.peek(player == last)
            cells[0].append(on_banker)
            cells[1].append(on_player)
        runs = big_road.columns.run_values()
        for road in derived:
            runs += road.columns.run_values()
        values = stats.values(big_road.columns)
        return cls(marks[0] + marks[1], (*cells[0], *cells[1]), runs, values)

    # -- the parts' JSON ----------------------------------------------------------------------

    def shown(self) -> dict[str, Any]:
        """``{"probe", "next_cells", "streaks", "stats"}`` as the roads document holds them:
        built once, shared by every document of this state (not to be changed in place)."""
        if self._shown is None:
            self._shown = {
                "probe": self.probe_dict(),
                "next_cells": self.next_cells_dict(),
                "streaks": self.streaks_dict(),
                "stats": self.stats_dict(),
            }
        return self._shown

    def probe_dict(self) -> dict[str, dict[str, str | None]]:
        marks = self.probe
        return {
            "B": dict(zip(_DERIVED, marks[:3], strict=True)),
            "P": dict(zip(_DERIVED, marks[3:], strict=True)),
        }

    def next_cells_dict(self) -> dict[str, dict[str, list[int] | None]]:
        cells = [None if cell is None else list(cell) for cell in self.cells]
        return {
            "B": dict(zip(_CELL_ROADS, cells[:5], strict=True)),
            "P": dict(zip(_CELL_ROADS, cells[5:], strict=True)),
        }

    def streaks_dict(self) -> dict[str, dict[str, dict[str, Any]]]:
        runs = self.runs
        return {
            road: {
                "current": {"side": runs[at], "length": runs[at + 1]},
                "longest": {"side": runs[at + 2], "length": runs[at + 3]},
            }
            for at, road in zip(range(0, 16, 4), _RUN_ROADS, strict=True)
        }

    def stats_dict(self) -> dict[str, Any]:
        values = self.stats
        counted = len(COUNTED)
        return {
            "rounds": values[0],
            "void_rounds": values[1],
            "counts": dict(zip(COUNTED, values[2 : 2 + counted], strict=True)),
            "percentages": dict(zip(COUNTED, values[2 + counted : 2 + 2 * counted], strict=True)),
            "longest_streak": {"banker": values[-3], "player": values[-2]},
            "dragons": values[-1],
        }


def small_ops(before: SmallParts, after: SmallParts, operations: list[Operation]) -> None:
    """Append to ``operations`` the ``replace`` operations that turn the small parts of
    ``before`` into those of ``after``: what :func:`roads.delta.diff` of their JSON gives, in
    its order, found by comparing the leaves (a part that did not change is one tuple
    comparison)."""
    if before.probe != after.probe:
        _leaves(_PROBE_PATHS, before.probe, after.probe, operations)
    if before.cells != after.cells:
        for (path, col_path, row_path), old, new in zip(
            _CELL_PATHS, before.cells, after.cells, strict=True
        ):
            if old == new:
                continue
            if old is None or new is None:
                value = None if new is None else list(new)
                operations.append({"op": "replace", "path": path, "value": value})
                continue
            if old[0] != new[0]:
                operations.append({"op": "replace", "path": col_path, "value": new[0]})
            if old[1] != new[1]:
                operations.append({"op": "replace", "path": row_path, "value": new[1]})
    if before.runs != after.runs:
        _leaves(_RUN_PATHS, before.runs, after.runs, operations)
    if before.stats != after.stats:
        _leaves(_STATS_PATHS, before.stats, after.stats, operations)


def _leaves(
    paths: tuple[str, ...], old: tuple[Any, ...], new: tuple[Any, ...], operations: list[Operation]
) -> None:
    # A leaf keeps its JSON type (a count an int, a percentage a float, a side a string or
    # None), so != is the diff's "equal and of the same type" here.
    operations += [
        {"op": "replace", "path": path, "value": b}
        for path, a, b in zip(paths, old, new, strict=True)
        if a != b
    ]
