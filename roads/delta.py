"""How a roads document changes from one version to the next, as a JSON Patch (RFC 6902).

A client that holds a shoe's roads document (:meth:`roads.Scorecard.as_dict`, or the service's
``GET .../roads`` answer) keeps it current by applying each change's patch, with any RFC 6902
library, instead of fetching the document again.

Every list of the document grows at its end as rounds are added: the beads, the Big Road's
columns and the cells of its last column, each derived road's marks and columns. So the patch of
a round is small: a new bead or cell is an ``add`` at the list's end (``/-``), a tie is one
``replace`` of the latest cell's ``ties`` counter, a derived road gains at most one mark, and the
probe, streaks and statistics change where they changed. A list that got shorter or changed in
its middle (a void or a correction earlier in the shoe) is replaced whole; a new shoe may be one
``replace`` of the root.

The values of one place of a roads document keep their JSON type (a count stays a number, a flag
a boolean), which is what lets equal Python values stand for equal JSON values here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roads.beadplate import bead_of
from roads.round import Round
from roads.scorecard import Scorecard

Operation = dict[str, Any]


def diff(before: Any, after: Any) -> list[Operation]:
    """The operations that turn the JSON value ``before`` into ``after`` (neither is changed,
    and the operations share no list or object with ``before``)."""
    operations: list[Operation] = []
    _diff(before, after, "", operations)
    return operations


def replace_all(after: Any) -> list[Operation]:
    """The whole document anew, as one ``replace`` of the root (a new shoe)."""
    return [{"op": "replace", "path": "", "value": after}]


def _diff(before: Any, after: Any, path: str, operations: list[Operation]) -> None:
    if before == after and type(before) is type(after):
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                operations.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in after.items():
            where = f"{path}/{_escape(key)}"
            if key in before:
                _diff(before[key], value, where, operations)
            else:
                operations.append({"op": "add", "path": where, "value": value})
        return
    if isinstance(before, list) and isinstance(after, list) and len(after) >= len(before):
        for index, old in enumerate(before):  # after is at least as long
            _diff(old, after[index], f"{path}/{index}", operations)
        for value in after[len(before) :]:
            operations.append({"op": "add", "path": f"{path}/-", "value": value})
        return
    operations.append({"op": "replace", "path": path, "value": after})


def _escape(key: str) -> str:
    """A key as a JSON Pointer token (RFC 6901): ``~`` is ``~0`` and ``/`` is ``~1``."""
    return key.replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True, slots=True)
class Tails:
    """What the patch of a round needs to know of a scorecard before it: how far each growing
    list of its document reached, and its small parts (probe, streaks, statistics) as they were.
    Taken in O(columns), without building the document."""

    beads: int
    columns: int  # the Big Road's
    last_length: int  # of its last column (0: none yet)
    last_ties: int  # on its last cell
    leading_ties: int
    marks: tuple[tuple[int, int], ...]  # each derived road's (columns, marks)
    small: dict[str, Any]

    @classmethod
    def of(cls, card: Scorecard) -> Tails:
        big_road = card.big_road
        lengths = big_road.columns.lengths
        return cls(
            beads=len(card),
            columns=len(lengths),
            last_length=lengths[-1] if lengths else 0,
            last_ties=big_road.ties[-1] if big_road.ties else 0,
            leading_ties=big_road.leading_ties,
            marks=tuple(
                (len(road.columns.lengths), sum(road.columns.lengths)) for road in card.derived
            ),
            small={
                "probe": card.probe(),
                "next_cells": card.next_cells(),
                "streaks": card.streaks(),
                "stats": card.stats(),
            },
        )


def round_patch(before: Tails, card: Scorecard, round: Round) -> list[Operation]:
    """The patch of one round: from the document of a scorecard whose :class:`Tails` were
    ``before`` to the document of ``card``, that scorecard after :meth:`Scorecard.add` of
    ``round`` (void or not). Only what the round changed is built, so a write can afford it;
    it equals :func:`diff` of the two documents in effect (the tests hold it to that)."""
    after = Tails.of(card)
    operations: list[Operation] = []
    if after.beads != before.beads:
        position = after.beads - 1
        operations.append({"op": "replace", "path": "/rounds", "value": after.beads})
        bead = bead_of(card.reported, round, position)
        operations.append({"op": "add", "path": "/bead_plate/-", "value": bead})
    operations += _big_road_patch(before, after, card, round)
    for (columns, marks), road in zip(before.marks, card.derived, strict=True):
        if sum(road.columns.lengths) == marks:
            continue
        col, row = road.layout.cursor()[1:3]
        mark = {"color": road.columns.sides[-1], "col": col, "row": row}
        operations.append({"op": "add", "path": f"/{road.name}/marks/-", "value": mark["color"]})
        operations.append(_grown(f"/{road.name}/columns", columns, road.columns.lengths, mark))
    for name, value in after.small.items():
        _diff(before.small[name], value, f"/{name}", operations)
    return operations


def _big_road_patch(before: Tails, after: Tails, card: Scorecard, round: Round) -> list[Operation]:
    big_road = card.big_road
    if after.leading_ties != before.leading_ties:
        return [{"op": "replace", "path": "/big_road/leading_ties", "value": after.leading_ties}]
    if after.columns == before.columns and after.last_length == before.last_length:
        if after.last_ties == before.last_ties:
            return []  # a void round
        where = f"/big_road/columns/{after.columns - 1}/{after.last_length - 1}/ties"
        return [{"op": "replace", "path": where, "value": after.last_ties}]
    col, row = big_road.layout.cursor()[1:3]
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
    return [_grown("/big_road/columns", before.columns, big_road.columns.lengths, cell)]


def _grown(path: str, columns_before: int, lengths: list[int], item: dict) -> Operation:
    """The newest item of a road: in a new column, or at the end of the last one."""
    if len(lengths) > columns_before:
        return {"op": "add", "path": f"{path}/-", "value": [item]}
    return {"op": "add", "path": f"{path}/{len(lengths) - 1}/-", "value": item}
