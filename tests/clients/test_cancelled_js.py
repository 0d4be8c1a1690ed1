"""The JavaScript client marks a roads document's cancelled rounds where the Python library does
(roads/beadplate.py ``cancelled_marks``), and its SVG draws each mark in view, as the PNG does."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from api.images.scene import THEMES, road_scene
from roads import Round, Scorecard
from roads.beadplate import cancelled_marks
from tests.strategies import dealt_shoes, reported_rounds


@settings(max_examples=60, deadline=None)
@given(st.one_of(dealt_shoes(max_voids=8), st.lists(reported_rounds, max_size=40)))
def test_the_js_client_marks_cancelled_rounds_as_python_does(node, rounds):
    doc = Scorecard.from_rounds(rounds).as_dict()
    drawn = node.call("documentCells", doc, "bead_plate")
    expected = cancelled_marks(doc["bead_plate"], doc["stats"]["void_rounds"])
    assert [(m["col"], m["row"], m["count"]) for m in drawn["cancelled"]] == expected


def test_the_svg_and_the_png_draw_the_marks_in_view(node):
    void = Round("P").voided()
    rounds = ["B", void, "P"] + ["B", "P"] * 8 + [void, void]  # beads 1..18, round 2 and two after
    doc = Scorecard.from_rounds(rounds).as_dict()
    drawn = node.call("documentCells", doc, "bead_plate")
    svg = node.call("roadSvg", "bead_plate", drawn, {"cols": 4})
    # 18 beads fill columns 0-2 and the two cancelled after them are marked on column 3's top:
    # a 4-column view shows round 2's X too, a 2-column one (columns 2 and 3) only theirs.
    assert re.findall(r'data-cancelled="([^"]+)"', svg) == ["0,1,1", "3,0,2"]
    narrow = node.call("roadSvg", "bead_plate", drawn, {"cols": 2})
    assert re.findall(r'data-cancelled="([^"]+)"', narrow) == ["3,0,2"]
    # The PNG's scene: two strokes an X, in the theme's colour.
    for cols, crosses in ((4, 2), (2, 1)):
        scene = road_scene(doc, "bead_plate", cols=cols)
        ink = THEMES["light"]["cancelled"]
        assert len([s for s in scene.slashes if s[4] == ink]) == 2 * crosses
