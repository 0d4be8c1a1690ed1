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
        columns, layout = big_road.columns, big_road.layout
        if columns.sides:
            # A Banker or Player of the last column's side goes on down, the other starts anew.
            down, new = layout.peek(True), layout.peek(False)
            on_banker, on_player = (down, new) if columns.sides[-1] == "B" else (new, down)
        else:
            on_banker = on_player = layout.peek(False)
        banker_cells: list[Cell | None] = [bead, on_banker]
        player_cells: list[Cell | None] = [bead, on_player]
        runs = columns.run_values()
        for road, banker, player in zip(derived, *marks, strict=True):
            # A road's next cell for a mark is the next of its column or the top of a new
            # one; a mark of the same colour for either side is in the same cell.
            columns, layout = road.columns, road.layout
            last = columns.sides[-1] if columns.sides else None
            on_banker = None if banker is None else layout.peek(banker == last)
            if player is None:
                on_player = None
            elif player == banker:
                on_player = on_banker
            else:
                on_player = layout.peek(player == last)
            banker_cells.append(on_banker)
            player_cells.append(on_player)
            runs += columns.run_values()
        values = stats.values(big_road.columns)
        return cls(marks[0] + marks[1], (*banker_cells, *player_cells), runs, values)

    # -- the parts' JSON ----------------------------------------------------------------------

    def shown(self, donor: SmallParts | None = None) -> dict[str, Any]:
        """``{"probe", "next_cells", "streaks", "stats"}`` as the roads document holds them:
        built once, shared by every document of this state (not to be changed in place). The
        parts equal to those of ``donor``'s shown JSON, when it was built,
        are that JSON's own: shared read-only, like the rest."""
        if self._shown is None:
            old = None if donor is None else donor._shown
            if old is None or donor is None:
                self._shown = {
                    "probe": self.probe_dict(),
                    "next_cells": self.next_cells_dict(),
                    "streaks": self.streaks_dict(),
                    "stats": self.stats_dict(),
                }
            else:
                probe = old["probe"] if self.probe == donor.probe else self.probe_dict()
                cells = old["next_cells"] if self.cells == donor.cells else self.next_cells_dict()
                streaks = old["streaks"] if self.runs == donor.runs else self.streaks_dict()
                stats = old["stats"] if self.stats == donor.stats else self.stats_dict()
                self._shown = {
                    "probe": probe,
                    "next_cells": cells,
                    "streaks": streaks,
                    "stats": stats,
                }
        return self._shown

    def probe_dict(self) -> dict[str, dict[str, str | None]]:
        m = self.probe
        return {
            "B": {"big_eye_boy": m[0], "small_road": m[1], "cockroach_road": m[2]},
            "P": {"big_eye_boy": m[3], "small_road": m[4], "cockroach_road": m[5]},
        }

    def next_cells_dict(self) -> dict[str, dict[str, list[int] | None]]:
        c = [None if cell is None else [cell[0], cell[1]] for cell in self.cells]
        return {
            "B": {
                "bead_plate": c[0],
                "big_road": c[1],
                "big_eye_boy": c[2],
                "small_road": c[3],
                "cockroach_road": c[4],
            },
            "P": {
                "bead_plate": c[5],
                "big_road": c[6],
                "big_eye_boy": c[7],
                "small_road": c[8],
                "cockroach_road": c[9],
            },
        }

    def streaks_dict(self) -> dict[str, dict[str, dict[str, Any]]]:
        r = self.runs
        return {
            "big_road": {
                "current": {"side": r[0], "length": r[1]},
                "longest": {"side": r[2], "length": r[3]},
            },
            "big_eye_boy": {
                "current": {"side": r[4], "length": r[5]},
                "longest": {"side": r[6], "length": r[7]},
            },
            "small_road": {
                "current": {"side": r[8], "length": r[9]},
                "longest": {"side": r[10], "length": r[11]},
            },
            "cockroach_road": {
                "current": {"side": r[12], "length": r[13]},
                "longest": {"side": r[14], "length": r[15]},
            },
        }

    def stats_dict(self) -> dict[str, Any]:
        v = self.stats
        return {
            "rounds": v[0],
            "void_rounds": v[1],
            "counts": {
                "banker": v[2],
                "player": v[3],
                "tie": v[4],
                "player_pair": v[5],
                "banker_pair": v[6],
                "natural": v[7],
                "banker_six": v[8],
            },
            "percentages": {
                "banker": v[9],
                "player": v[10],
                "tie": v[11],
                "player_pair": v[12],
                "banker_pair": v[13],
                "natural": v[14],
                "banker_six": v[15],
            },
            "longest_streak": {"banker": v[16], "player": v[17]},
            "dragons": v[18],
        }


# The *_dict methods spell these keys out (a dict display is the quickest dict to build).
assert COUNTED == ("banker", "player", "tie", "player_pair", "banker_pair", "natural", "banker_six")
assert _CELL_ROADS == ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road")
assert _RUN_ROADS == ("big_road", "big_eye_boy", "small_road", "cockroach_road")


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
