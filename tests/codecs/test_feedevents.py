"""An event of the live feed (api.codecs.feedevents): each channel's text is the stream entry's
data with what that channel adds, built by the encoder, and without the odds for a reader who
may not see them."""

import json

from api.codecs.feedevents import Event, encode_data, encode_patch, stream_key


def data_of(text: str) -> dict:
    lines = dict(line.split(": ", 1) for line in text.strip().split("\n") if ": " in line)
    return json.loads(lines["data"])


def test_a_round_event_carries_the_tile_on_the_lobby_and_the_patch_on_its_table():
    data = {"table": "t1", "shoe": "s1", "version": 3, "round": 3, "result": "B", "void": False}
    summary = json.dumps({"shoe": "s1", "recent": ["B"], "edge": {"tie": 1.01}})
    patch = encode_patch(2, [{"op": "replace", "path": "/version", "value": 3}])
    extras = {"table": "t1", "prev": "5-0", "summary": summary, "patch": patch}
    event = Event.of("7-0", "round", encode_data(data), extras)
    assert (event.table, event.prev, event.key) == ("t1", "5-0", (7, 0))
    assert data_of(event.sse(None)) == {**data, "summary": json.loads(summary)}
    assert data_of(event.sse(None, odds=False))["summary"]["edge"] == {}
    detail = data_of(event.sse(frozenset({"t1"})))
    assert detail == {**data, **json.loads(patch)}
    assert event.sse(frozenset({"t1"}), odds=False) == event.sse(frozenset({"t1"}))


def test_an_edge_event_is_a_bare_comment_without_the_odds():
    data = encode_data({"table": "t1", "bet": "tie", "state": "start", "rtp": 1.02})
    event = Event.of("9-1", "edge", data, {"table": "t1"})
    assert data_of(event.sse(None)) == json.loads(data)
    assert event.sse(None, odds=False) == "id: 9-1\n:\n\n"


def test_stream_ids_compare_as_numbers():
    assert stream_key("10-0") > stream_key("9-5") > stream_key("9")
