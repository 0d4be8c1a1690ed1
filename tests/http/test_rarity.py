"""How unusual is this, as served: /v1/rarity, each pattern's chance in /v1/patterns, the chance
of each tile's current run and of each Good Road a ``good_road`` start event names."""

import pytest

from roads import parse_expression
from roads.rarity import figure, lobby_chance, pattern_chance, run_chance
from tests.api_helpers import feed, post_round
from tests.http.test_feed_events import read


def rarity(client, query):
    answer = client.get(f"/v1/rarity?{query}")
    assert answer.status_code == 200, answer.json
    return answer


def test_a_banker_run_of_8_in_an_80_hand_shoe(client):
    answer = rarity(client, "road=big_road&side=B&length=8&hands=80")
    exact = run_chance("big_road", "B", 8, 80).value
    assert answer.json == {
        "chance": exact,
        "interval": [exact, exact],
        "method": "exact",
        "one_in": 1 / exact,
        "hands": 80,
        "road": "big_road",
        "side": "B",
        "length": 8,
    }
    assert round(answer.json["chance"], 3) == 0.135  # "seen in 13.5% of shoes"
    assert answer.headers["Cache-Control"] == "public, max-age=86400"
    again = client.get(answer.request.full_path, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_shoe_is_80_hands_unless_asked_and_tables_add_the_lobby_figure(client):
    answer = rarity(client, "road=big_road&side=either&length=6&tables=40").json
    chance = run_chance("big_road", "either", 6, 80).value
    assert answer["hands"] == 80 and answer["chance"] == chance
    assert answer["tables"] == 40 and answer["lobby_chance"] == lobby_chance(chance, 40)
    shorter = rarity(client, "road=big_road&side=either&length=6&hands=30").json
    assert shorter["chance"] == run_chance("big_road", "either", 6, 30).value < chance


def test_a_derived_roads_run_is_simulated_with_its_interval(client):
    answer = rarity(client, "road=cockroach_road&side=red&length=7").json
    table = run_chance("cockroach_road", "red", 7, 80)
    assert answer["method"] == "simulated" and answer["shoes"] == 1_000_000
    assert answer["interval"] == [table.low, table.high]
    assert table.low < answer["chance"] < table.high


def test_a_good_road_built_in_or_custom(client):
    answer = rarity(client, "pattern=shuang_tiao&tables=10").json
    chance = pattern_chance("shuang_tiao", 80).value
    assert (answer["pattern"], answer["chance"], answer["method"]) == (
        "shuang_tiao",
        chance,
        "exact",
    )
    assert answer["lobby_chance"] == lobby_chance(chance, 10)
    custom = rarity(client, "custom=X1 Y2 X1 Y2&hands=60").json
    expected = pattern_chance(parse_expression("X1 Y2 X1 Y2"), 60).value
    assert (custom["pattern"], custom["chance"]) == ("custom:X1 Y2 X1 Y2", expected)


@pytest.mark.parametrize(
    "query,names",
    [
        ("", "ask for one thing"),
        ("road=big_road&side=B&length=8&pattern=banker_streak", "ask for one thing"),
        ("road=big_road&side=B", "length missing"),
        ("road=small_road&side=B&length=3", "red, blue, either"),
        ("road=big_road&side=red&length=3", "B, P, either"),
        ("road=bead_plate&side=B&length=3", "road"),
        ("road=big_road&side=B&length=0", "length"),
        ("road=big_road&side=B&length=8&hands=105", "hands"),
        ("pattern=no_such", "pattern"),
        ("pattern=banker_streak&tables=0", "tables"),
        ("custom=X1 X2", "alternate"),
        ("custom=X1 Y1 X1 Y1 X1 Y1 X1 Y1 X1 Y9", "too much of the road"),
    ],
)
def test_what_cannot_be_answered_is_a_422_naming_it(client, query, names):
    answer = client.get(f"/v1/rarity?{query}")
    assert answer.status_code == 422, answer.json
    assert names in str(answer.json)


def test_each_pattern_states_its_chance(client):
    answer = client.get("/v1/patterns?profile=asia").json
    assert answer["hands"] == 80
    for pattern in answer["patterns"]:
        assert pattern["chance"] == pattern_chance(pattern["id"], 80).value


def test_each_tiles_current_run_states_its_chance(client):
    feed(client, "BPBBBBB")
    runs = client.get("/v1/tables").json["tables"][0]["streaks"]
    big_road = runs["big_road"]["current"]
    chance = figure(run_chance("big_road", "B", 5, 80).value)
    # the first write of a process counts the lobby's tables: none yet, so 1
    assert big_road == {"side": "B", "length": 5, "chance": chance, "lobby_chance": chance}
    for road in ("big_eye_boy", "small_road", "cockroach_road"):
        run = runs[road]["current"]
        if run["side"] is None:
            assert run["chance"] is None and run["lobby_chance"] is None
        else:
            assert run["chance"] == figure(run_chance(road, run["side"], run["length"], 80).value)


def test_a_good_road_start_event_states_its_chance_across_the_lobby(client):
    for table in ("t2", "t3"):
        post_round(client, 1, table, "s1", result="P")
    feed(client, "BBB")
    stream = client.get("/v1/events?frames=0", buffered=False)
    post_round(client, 4, result="B")
    events, _ = read(stream, 3, seconds=2.0)
    stream.close()
    started = {e["data"]["pattern"]: e["data"] for e in events if e["event"] == "good_road"}
    assert set(started) == {"banker_streak", "chang_zhuang"}
    for pattern, data in started.items():
        chance = figure(pattern_chance(pattern, 80).value)
        assert data["chance"] == chance
        assert data["lobby_chance"] == figure(lobby_chance(chance, 3))  # the lobby's 3 tables
