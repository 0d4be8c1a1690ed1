"""The lobby's per-table summary (roads/lobby.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roads import Round, Scorecard, parse_expression
from roads.lobby import LOBBY_ROADS, RECENT, RoadShape, run_changes, sort_key, streaks, summary
from tests.strategies import dealt_shoes, results

CUSTOM = [parse_expression(text) for text in ("X1 Y2 X1", "X2+ Y1", "X1 Y1")]


def test_summary_of_a_worked_shoe():
    scorecard = Scorecard.from_rounds("BBBBTBPPBPTB")
    tile = summary(scorecard)
    assert tile["rounds_played"] == 12
    assert tile["recent"] == list("BBBBTBPPBPTB")
    assert tile["streaks"]["big_road"] == {
        "current": {"side": "B", "length": 1},
        "longest": {"side": "B", "length": 5},
    }
    assert set(tile["streaks"]) == set(LOBBY_ROADS)
    assert tile["good_roads"] == [
        {"pattern": g["pattern"], "since_round": g["since_round"]} for g in scorecard.good_roads()
    ]


def test_recent_skips_void_rounds_and_keeps_the_last_twelve():
    rounds = list(Scorecard.from_rounds("PPPPPPBBBBBBTT").rounds)
    rounds[13] = rounds[13].voided()
    assert summary(Scorecard.from_rounds(rounds))["recent"] == list("PPPPPBBBBBBT")[-RECENT:]


@given(dealt_shoes())
def test_recent_equals_the_last_played_results(rounds):
    played = [r.result for r in rounds if not r.void]
    assert Scorecard.from_rounds(rounds).recent(RECENT) == played[-RECENT:]


@given(results)
def test_the_road_shape_matches_what_the_scorecard_matches(text):
    scorecard = Scorecard.from_rounds(text)
    shape = RoadShape.from_dict(RoadShape.of(scorecard).as_dict())
    assert shape.good_roads() == scorecard.good_roads()
    assert shape.good_roads(CUSTOM) == scorecard.good_roads(CUSTOM)


@given(results, st.sampled_from("BPT"))
def test_a_run_grows_only_by_extending_the_same_side(text, result):
    scorecard = Scorecard.from_rounds(text)
    before = streaks(scorecard)
    scorecard.add(result)
    changes = run_changes(before, streaks(scorecard))
    old = before["big_road"]["current"]
    if result == "T":
        assert "big_road" not in changes
    elif old["side"] == result:
        assert changes["big_road"] == "grew"
    else:
        assert changes["big_road"] == "new"
    for road in LOBBY_ROADS:
        if changes.get(road) == "grew":
            assert streaks(scorecard)[road]["current"]["length"] == old_len(before, road) + 1


def old_len(before, road):
    return before[road]["current"]["length"]


def test_nothing_grows_in_a_new_shoe_and_every_run_is_new():
    scorecard = Scorecard.from_rounds("BBBBB")
    assert run_changes(None, streaks(scorecard)) == dict.fromkeys(LOBBY_ROADS, "new")


def test_sort_key_is_current_then_longest_run():
    tile = summary(Scorecard.from_rounds("PPPPPBB"))
    assert sort_key("big_road", tile) == (2, 5)


@pytest.mark.parametrize("played", range(0, 15))
def test_recent_lists_the_last_results_of_a_short_shoe_too(played):
    results = "BPTBBPPBTPBPBB"[:played]
    scorecard = Scorecard.from_rounds([Round.from_result(r) for r in results])
    assert scorecard.recent(RECENT) == list(results[-RECENT:])
