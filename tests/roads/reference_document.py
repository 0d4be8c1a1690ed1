"""The roads document as ``Scorecard.as_dict`` built it whole before it was kept (issue 44): the
reference the kept document and the round patches are held to, byte for byte.

Every part is built from the roads: the probe and next cells by roads.probe (which places each
next cell on a copy of the layout), the streaks by roads.columns.runs_of, the statistics' longest
streaks and dragons by a walk of the Big Road's columns."""

import json

from roads import Scorecard
from roads.columns import runs_of
from roads.probe import next_cells, probe_dict, probe_marks
from roads.stats import DRAGON_LENGTH, ShoeStats


def text(value) -> str:
    return json.dumps(value)  # keys in order: the served bytes, not just equal values


def reference_stats(card: Scorecard) -> dict:
    stats = ShoeStats.of(list(card.rounds)).as_dict(card.big_road.columns)
    longest, dragons = {"B": 0, "P": 0}, 0
    columns = card.big_road.columns
    for side, length in zip(columns.sides, columns.lengths, strict=True):
        longest[side] = max(longest[side], length)
        dragons += length >= DRAGON_LENGTH
    stats["longest_streak"] = {"banker": longest["B"], "player": longest["P"]}
    stats["dragons"] = dragons
    return stats


def reference_document(card: Scorecard) -> dict:
    marks = probe_marks(card.big_road, card.derived)
    roads = [("big_road", card.big_road.columns)] + [(r.name, r.columns) for r in card.derived]
    return {
        "rounds": len(card),
        "bead_plate": card.bead_plate(),
        "big_road": card.big_road_dict(),
        **{road.name: road.as_dict() for road in card.derived},
        "probe": probe_dict(card.derived, marks),
        "next_cells": next_cells(card.big_road, card.derived, len(card), marks),
        "streaks": runs_of(roads),
        "stats": reference_stats(card),
    }
