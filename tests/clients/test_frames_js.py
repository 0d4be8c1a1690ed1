"""The JavaScript client keeps the lobby's tiles as the Python reference does: every frame the
service makes, applied by clients/js/src/frames.js to the tiles of the frame before, gives the
same tiles as api/codecs/frames.apply (rounds, ties, voids, corrections, new shoes, renames,
retired tables; the cells each tile draws included)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.clients.node import Node
from tests.codecs.test_frames import TABLES_ACTIONS, dealt_lobby, played


@pytest.fixture(scope="module")
def node():
    process = Node()
    yield process
    process.stop()


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
