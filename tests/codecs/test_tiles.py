"""A lobby tile (api.codecs.tiles): encoded once in full and once without the odds, and the
lobby's answers embed either whole; the registry entry following the pay table its table's shoe
is priced under, alike in Python and in the lobby script's Lua."""

import json

from hypothesis import given
from hypothesis import strategies as st

from api.codecs import tiles
from api.codecs.tiles import (
    EMPTY,
    Tile,
    encode_summary,
    good_roads_answer,
    in_force,
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


# -- a registry entry following the pay table its table's current shoe is priced under ------------

paytable_names = st.from_regex(r"[a-z][a-z0-9]{0,6}(_[a-z0-9]{1,4}){0,2}", fullmatch=True)
bounds = st.fixed_dictionaries(
    {"min": st.integers(0, 10**6) | st.floats(0, 1e12), "max": st.floats(0, 1e12)}
)
entries = st.builds(
    registry_entry,
    st.text(max_size=12),
    paytable_names,
    st.none() | st.fixed_dictionaries({"table": bounds}),
    st.none() | paytable_names,
)


@given(entries, paytable_names)
def test_an_entry_follows_its_pay_table_alike_in_python_and_in_the_lobby_script(
    lua, entry, variant
):
    mine = in_force(entry, variant)
    theirs = lua(tiles.LUA, "return registry_in_force(ARGV[1], ARGV[2])", entry, variant)
    assert theirs.decode() == mine
    before, after = json.loads(entry), json.loads(mine)
    assert after["variant"] == variant
    assert after.get("next_variant") == (
        None if before.get("next_variant") == variant else before.get("next_variant")
    )
    assert {k: v for k, v in after.items() if k not in ("variant", "next_variant")} == {
        k: v for k, v in before.items() if k not in ("variant", "next_variant")
    }
    if before["variant"] == variant and before.get("next_variant") != variant:
        assert mine == entry  # nothing to do: the same text


def test_a_waiting_pay_table_in_force_leaves_the_entry_and_keeps_its_limits_spelt():
    limits = {"table": {"min": 1e-7, "max": 999999999999.99}}
    entry = registry_entry('A "quoted",\\"variant\\":"x" name', "standard", limits, "lucky_6")
    after = in_force(entry, "lucky_6")
    assert after == registry_entry('A "quoted",\\"variant\\":"x" name', "lucky_6", limits)
    assert in_force(after, "lucky_6") == after
