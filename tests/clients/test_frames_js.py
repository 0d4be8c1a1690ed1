"""The JavaScript client keeps the lobby's tiles as the Python reference does: every frame the
service makes, applied by clients/js/src/frames.js to the tiles of the frame before, gives the
same tiles as api/codecs/frames.apply (rounds, ties, voids, corrections, new shoes, renames,
retired tables; the cells each tile draws included); and it takes every one of them for a frame
(clients/js/src/frameschema.js drops what is not one)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.codecs.test_frames import TABLES_ACTIONS, dealt_lobby, played


@settings(max_examples=60, deadline=None)
@given(TABLES_ACTIONS, st.data())
def test_the_js_client_applies_frames_as_the_reference_does(node, tables_actions, data):
    first, frames = played(tables_actions, data)
    after = node.call("applyFrames", first, [frame for frame, _ in frames])
    assert after == [json.loads(json.dumps(tiles)) for _, tiles in frames]


@pytest.mark.parametrize("seed", range(3))
def test_the_js_client_keeps_tiles_through_whole_shoes(node, seed):
    """Past the columns a tile shows, its window moves on (the Hypothesis lobbies are short)."""
    first, frames = dealt_lobby(seed)
    after = node.call("applyFrames", first, [frame for frame, _ in frames])
    assert after == [json.loads(json.dumps(tiles)) for _, tiles in frames]


def numbered(first: dict, frames: list[dict]) -> list[dict]:
    """The frames as the feed sends them: a full one, then each with its cursor and the one
    before's."""
    sent = [{"cursor": 1, "full": True, "tables": first}]
    for at, frame in enumerate(frames, start=2):
        sent.append({"cursor": at, "after": at - 1, **frame})
    return sent


@settings(max_examples=60, deadline=None)
@given(TABLES_ACTIONS, st.data())
def test_every_frame_the_service_makes_passes_the_js_clients_check(node, tables_actions, data):
    first, frames = played(tables_actions, data)
    sent = numbered(first, [frame for frame, _ in frames])
    assert node.call("frameProblems", sent) == [None] * len(sent)


@pytest.mark.parametrize("seed", range(3))
def test_whole_shoes_frames_pass_the_js_clients_check(node, seed):
    first, frames = dealt_lobby(seed)
    sent = numbered(first, [frame for frame, _ in frames])
    assert node.call("frameProblems", sent) == [None] * len(sent)


def test_the_js_client_names_what_is_wrong_with_a_forged_frame(node):
    tile = dealt_lobby(0)[0]["t0"]
    forged = {"cursor": 1, "full": True, "tables": {"t0": {**tile, "roads": {**tile["roads"]}}}}
    hostile = '"><img src=x onerror=alert(1)>'
    forged["tables"]["t0"]["roads"]["big_road"] = {"from": hostile, "cols": ""}
    assert node.call("frameProblems", [forged]) == ["tables.t0.roads.big_road.from: not a column"]
