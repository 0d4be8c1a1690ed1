"""What a multi-table lobby shows of a table's current shoe: a small summary per table.

The lobby lists every table at once, so it never reads a whole scorecard: it reads one summary
per table, made when a round is stored (:func:`summary`). A summary holds the rounds played, the
last few results, the current and longest run of the Big Road and of each derived road, and the
Good Roads matched now. The Big Road's logical columns go apart in a :class:`RoadShape`, which is
all a pattern needs, so a client's own pattern can be matched on every table without loading any
scorecard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from roads.goodroads import good_roads_of
from roads.odds import edge_of, favourable_bets
from roads.patterns import PATTERNS, Pattern
from roads.paytables import PayTable
from roads.rarity import LobbyFigures
from roads.scorecard import Scorecard
from roads.tileroads import tile_roads

# The roads a lobby can sort by, in display order.
LOBBY_ROADS: tuple[str, ...] = ("big_road", "big_eye_boy", "small_road", "cockroach_road")
RECENT = 12  # how many of the last results a summary lists


@dataclass(frozen=True, slots=True)
class RoadShape:
    """The Big Road's logical columns (ties ignored): one side letter and one length per column,
    and the 1-based round of every cell in order."""

    sides: str
    lengths: tuple[int, ...]
    cell_rounds: tuple[int, ...]

    @classmethod
    def of(cls, scorecard: Scorecard) -> RoadShape:
        big_road = scorecard.big_road
        return cls(
            "".join(big_road.columns.sides),
            tuple(big_road.columns.lengths),
            tuple(index + 1 for index in big_road.cell_rounds),
        )

    def good_roads(self, patterns: Sequence[Pattern] = PATTERNS) -> list[dict[str, Any]]:
        """The patterns this road matches now, each with the round it holds from."""
        zero_based = [number - 1 for number in self.cell_rounds]
        return good_roads_of(self.sides, self.lengths, zero_based, patterns)

    def as_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "lengths": list(self.lengths), "cells": list(self.cell_rounds)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoadShape:
        return cls(data["sides"], tuple(data["lengths"]), tuple(data["cells"]))


def streaks(
    scorecard: Scorecard, figures: LobbyFigures | None = None
) -> dict[str, dict[str, dict[str, Any]]]:
    """Current and longest run of each lobby road; with ``figures``, the current run also has
    its ``chance`` in a shoe and its ``lobby_chance`` across the lobby's tables
    (:mod:`roads.rarity`; ``None`` without a run)."""
    every = scorecard.streaks()
    found = {road: every[road] for road in LOBBY_ROADS}
    if figures is not None:
        for road, runs in found.items():
            side, length = runs["current"]["side"], runs["current"]["length"]
            runs["current"] = {**runs["current"], **figures.of_run(road, side, length)}
    return found


def summary(
    scorecard: Scorecard,
    variant: str | PayTable = "standard",
    odds: Mapping[str, Any] | None = None,
    figures: LobbyFigures | None = None,
) -> dict[str, Any]:
    """A table tile's data for this shoe: ``rounds_played``, ``recent`` (the last
    :data:`RECENT` results, oldest first), ``streaks`` of every lobby road (each current run
    with its chance, :func:`streaks` with ``figures``), ``good_roads``
    (``pattern`` and ``since_round`` of each built-in pattern matched now) and ``edge``: the
    bets whose return is above 100% for the next round under ``variant``, with their returns
    (:func:`roads.odds.favourable_bets`, or read from ``odds``, :func:`roads.odds.shoe_odds` of
    the shoe when they are at hand; empty unless the cards left are known), and ``roads``:
    the cells a tile draws of each lobby road (:func:`roads.tileroads.tile_roads`)."""
    edge = favourable_bets(scorecard, variant) if odds is None else edge_of(odds)
    return {
        "rounds_played": len(scorecard),
        "recent": scorecard.recent(RECENT),
        "streaks": streaks(scorecard, figures),
        "good_roads": [
            {"pattern": found["pattern"], "since_round": found["since_round"]}
            for found in scorecard.good_roads()
        ],
        "edge": {bet: round(rtp, 6) for bet, rtp in edge.items()},
        "roads": tile_roads(scorecard),
    }


def run_changes(
    before: Mapping[str, Mapping[str, Any]] | None, after: Mapping[str, Mapping[str, Any]]
) -> dict[str, str]:
    """How the current run of each lobby road changed from ``before`` to ``after`` (both as
    returned by :func:`streaks`; ``before`` is ``None`` for a new shoe or a rebuilt one):
    ``"grew"`` when it is the same side or colour and longer, ``"new"`` when another run took
    its place (or anything else changed it), and absent when the road did not change (the
    chance beside a run is not a change of it)."""
    changes = {}
    for road in LOBBY_ROADS:
        new = after[road]["current"]
        old = before[road]["current"] if before is not None else None
        if old is not None and (old["side"], old["length"]) == (new["side"], new["length"]):
            continue
        grew = old is not None and new["side"] == old["side"] and new["length"] > old["length"]
        changes[road] = "grew" if grew and new["side"] is not None else "new"
    return changes


def sort_key(road: str, table_summary: Mapping[str, Any]) -> tuple[int, int]:
    """Sort key for "longest streak first" on ``road``: the current run, then the longest run
    (use with ``reverse=True``)."""
    runs = table_summary["streaks"][road]
    return runs["current"]["length"], runs["longest"]["length"]


def transitions(old: Mapping[str, str], new: Mapping[str, str]) -> set[tuple[str, str, str]]:
    """How a table's membership (pattern -> since round, or bet -> return) changed: ``(name,
    "stop", old value)`` for each name that left, ``(name, "start", new value)`` for each that
    came. A name in both stays, whatever its value: no event (a Good Road holding on, an edge
    whose return moved but stayed above 100%)."""
    stopped = {(name, "stop", value) for name, value in old.items() if name not in new}
    started = {(name, "start", value) for name, value in new.items() if name not in old}
    return stopped | started
