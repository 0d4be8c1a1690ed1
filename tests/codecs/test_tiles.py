"""A lobby tile (api.codecs.tiles): encoded once in full and once without the odds, and the
lobby's answers embed either whole."""

import json

from api.codecs.tiles import (
    EMPTY,
    Tile,
    encode_summary,
    good_roads_answer,
    lobby_answer,
    public_summary,
    registry_entry,
)
from roads import Scorecard
from roads.lobby import summary

EDGE = {"tie": 1.012345}


def stored_summary() -> bytes:
    tile = summary(Scorecard.from_rounds("BBBPT"), "standard")
    return encode_summary("s1", 5, {**tile, "edge": EDGE}).encode()


def test_a_tile_is_its_entry_and_summary_in_full_and_without_the_odds():
    tile = Tile.of("t1", registry_entry("Table 1", "speed").encode(), stored_summary())
    full, public = json.loads(tile.json), json.loads(tile.public)
    assert full["table"] == "t1" and full["name"] == "Table 1" and full["variant"] == "speed"
    assert full["shoe"] == "s1" and full["version"] == 5 and full["edge"] == EDGE
    assert public == {**full, "edge": {}}
    assert json.loads(public_summary(stored_summary()))["edge"] == {}


def test_a_table_with_no_round_has_the_empty_summary():
    tile = Tile.of("t2", registry_entry("t2", "standard").encode(), None)
    assert tile.summary is None
    assert json.loads(tile.json) == {
        "table": "t2",
        "name": "t2",
        "variant": "standard",
        "next_variant": None,
        "limits": None,
        "status": "open",
        "status_until": None,
        "status_reason": None,
        "dealer": None,
        **EMPTY,
    }


def test_the_answers_embed_the_tiles_as_the_reader_may_see_them():
    tiles = [Tile.of("t1", registry_entry("T", "standard").encode(), stored_summary())]
    with_odds = json.loads(lobby_answer(7, 2, tiles, odds=True))
    assert with_odds == {"cursor": 7, "grown": 2, "tables": [json.loads(tiles[0].json)]}
    without = json.loads(lobby_answer(7, None, tiles, odds=False))
    assert without == {"cursor": 7, "tables": [json.loads(tiles[0].public)]}
    found = [("t1", "banker_streak", 1), ("gone", "banker_streak", 2)]
    answer = json.loads(good_roads_answer(found, {"t1": tiles[0]}, odds=False))
    assert answer == {
        "good_roads": [
            {
                "table": "t1",
                "pattern": "banker_streak",
                "since_round": 1,
                "summary": json.loads(tiles[0].public),
            }
        ]
    }


def test_a_summary_stored_before_tiles_had_roads_shows_them_empty_until_the_next_write():
    older = json.loads(stored_summary())
    del older["roads"]
    tile = Tile.of("t3", registry_entry("t3", "standard").encode(), json.dumps(older).encode())
    assert json.loads(tile.json)["roads"] == EMPTY["roads"] == tile.summary["roads"]
